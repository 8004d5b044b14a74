import { mkdtempSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Service } from 'kubernetes-models/v1';
import { KUBE_MODELS as models } from './kube-schemas.fixture';
import { deployKubernetes, kubernetesObjects, readDeployFormation, type KubeObject, type SecretRef } from '.';
import { allowed, type Endpoint } from './policy-eval.fixture';

// A formation with every kind of edge: orch -> alpha, orch -> beta, alpha -> beta (capsules),
// orch -> api.example.com:443 and 203.0.113.7:8443 (external), beta's inference endpoint, and a
// capsule with no edges that is only exposed through the gateway. orch's manifest reads a secret through ${API_KEY}.

const SECRET = 'sk-live-do-not-leak-4242';
const NS = 'agents';

const manifest = (name: string, extra: string) => `name: ${name}
version: "1.0.0"
inference:
  transport: embedded
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
${extra}`;

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'capsule-deploy-'));
  mkdirSync(join(dir, 'capsules'));
  const files: Record<string, string> = {
    orch: manifest(
      'orch',
      '  system_prompt: "key ${API_KEY}"\ncapabilities:\n  network:\n    allow:\n      - localhost:47311\n      - 127.0.0.1:47312\n      - https://api.example.com\n      - 203.0.113.7:8443\n',
    ),
    alpha: manifest(
      'alpha',
      'network:\n  internal_port: 47311\nexports:\n  peer_tasks:\n    accept: true\ncapabilities:\n  network:\n    allow: [ "localhost:47312" ]\n',
    ),
    beta: `name: beta\nversion: "1"\nartifacts:\n  - name: murmur/driver-openai\n    gateway: { endpoint: "https://203.0.113.50/v1" }\ninference:\n  transport: http\n  model: gpt-test\n  driver:\n    artifact: murmur/driver-openai\nnetwork:\n  internal_port: 47312\nexports:\n  peer_tasks:\n    accept: true\n`,
    Loner_1: manifest('loner', ''),
  };
  for (const [id, text] of Object.entries(files)) writeFileSync(join(dir, 'capsules', `${id}.yaml`), text);
  writeFileSync(
    join(dir, 'formation.yaml'),
    `capsules:\n${Object.keys(files)
      .map((id) => `  - id: ${id}\n    manifest: capsules/${id}.yaml\n`)
      .join('')}remotes: []\n`,
  );
  return dir;
}

const secrets = new Map<string, SecretRef>([['API_KEY', { secret: 'orch-keys', key: 'api-key' }]]);
const options = {
  namespace: NS,
  image: 'registry.example.com/capsule-runtime:1.0',
  secrets,
  exposed: ['alpha', 'loner', 'not-in-formation'],
  host: 'agents.example.com',
};

const saved = process.env.API_KEY;
afterEach(() => {
  if (saved === undefined) delete process.env.API_KEY;
  else process.env.API_KEY = saved;
});

describe('capsule deploy kubernetes', () => {
  it('writes objects that all validate against the Kubernetes API schemas, listed by a kustomization', () => {
    const out = mkdtempSync(join(tmpdir(), 'capsule-k8s-'));
    const files = deployKubernetes(workspace(), out, options);
    const kustomization = parse(readFileSync(join(out, 'kustomization.yaml'), 'utf8'));
    expect(kustomization.resources.sort()).toEqual(files.filter((f) => f !== 'kustomization.yaml').sort());
    const kinds = new Set<string>();
    for (const f of kustomization.resources as string[]) {
      const obj = parse(readFileSync(join(out, f), 'utf8'));
      const Model = models[obj.kind];
      expect(Model, `no schema for ${obj.kind}`).toBeDefined();
      expect(() => new Model(obj as never).validate(), f).not.toThrow();
      kinds.add(obj.kind);
    }
    expect([...kinds].sort()).toEqual(['ConfigMap', 'Deployment', 'Ingress', 'Namespace', 'NetworkPolicy', 'Service']);
    // The schema check is live: a broken object is refused.
    expect(() =>
      new Service({ metadata: { name: 'x' }, spec: { ports: [{ port: 'not-a-number' }] } } as never).validate(),
    ).toThrow();
  });

  it('never writes a ${VAR} value: the pod reads it from the Secret the user names', () => {
    process.env.API_KEY = SECRET;
    const dir = workspace();
    const out = mkdtempSync(join(tmpdir(), 'capsule-k8s-'));
    deployKubernetes(dir, out, options);
    for (const f of readdirSync(out)) expect(readFileSync(join(out, f), 'utf8')).not.toContain(SECRET);
    const objects = kubernetesObjects(readDeployFormation(dir), options);
    const orch = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'orch') as any;
    expect(orch.spec.template.spec.containers[0].env).toContainEqual({
      name: 'API_KEY',
      valueFrom: { secretKeyRef: { name: 'orch-keys', key: 'api-key' } },
    });
    const cm = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'orch-manifest') as any;
    expect(cm.data['murmur.yaml']).toContain('${API_KEY}');
  });

  it('refuses a formation whose ${VAR} has no Secret named for it', () => {
    expect(() => kubernetesObjects(readDeployFormation(workspace()), { ...options, secrets: new Map() })).toThrow(
      /--secret API_KEY=<secret>\/<key>/,
    );
  });

  it('refuses a capsule id that would name an invalid Service (starting with a digit), saying why', () => {
    const dir = workspace();
    writeFileSync(
      join(dir, 'formation.yaml'),
      readFileSync(join(dir, 'formation.yaml'), 'utf8').replace('id: alpha', 'id: 1worker'),
    );
    expect(() => readDeployFormation(dir)).toThrow(
      /capsule id "1worker" would name its Kubernetes Service "1worker", but a Service name must start with a letter/,
    );
  });

  it('points allow entries for other capsules at their Service names and runs the door where the Service reaches it', () => {
    const objects = kubernetesObjects(readDeployFormation(workspace()), options);
    const cm = (name: string) =>
      parse(
        (objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === `${name}-manifest`) as any).data[
          'murmur.yaml'
        ],
      );
    expect(cm('orch').capabilities.network.allow).toEqual([
      'https://api.example.com',
      '203.0.113.7:8443',
      `http://alpha.${NS}.svc.cluster.local:47311`,
      `http://beta.${NS}.svc.cluster.local:47312`,
    ]);
    expect(cm('alpha').capabilities.network.allow).toEqual([`http://beta.${NS}.svc.cluster.local:47312`]);
    const args = (objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'orch') as any).spec.template.spec
      .containers[0].args;
    expect(args.slice(0, 7)).toEqual([
      'run',
      '--manifest',
      '/etc/capsule/murmur.yaml',
      '--port',
      '8080',
      '--host',
      '0.0.0.0',
    ]);
    expect(args).toContain(`alpha=http://alpha.${NS}.svc.cluster.local:47311`);
    const svc = objects.find((o) => o.kind === 'Service' && o.metadata.name === 'loner-1') as any;
    expect(svc.spec.ports[0].port).toBe(8080);
    const gw = (objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'capsule-gateway') as any).spec
      .template.spec;
    expect(gw.containers[0].args).toEqual(
      expect.arrayContaining([
        '--capsule-url',
        `alpha=http://alpha.${NS}.svc.cluster.local:47311`,
        `loner=http://loner-1.${NS}.svc.cluster.local:8080`,
        '--public-origin',
        'https://agents.example.com',
      ]),
    );
    expect(gw.containers[0].args.join(' ')).not.toContain('not-in-formation');
    expect(gw.volumes).toContainEqual(
      expect.objectContaining({ secret: expect.objectContaining({ secretName: 'capsule-gateway-exposures' }) }),
    );
  });

  it('leaves out the gateway and Ingress when nothing is exposed', () => {
    const kinds = kubernetesObjects(readDeployFormation(workspace()), { ...options, exposed: [] }).map(
      (o: KubeObject) => `${o.kind}/${o.metadata.name}`,
    );
    expect(kinds.some((k) => k.includes('capsule-gateway'))).toBe(false);
    expect(kinds.some((k) => k.startsWith('Ingress/'))).toBe(false);
  });
});

describe('the network policies enforce the graph', () => {
  const pod = (name: string, ip: string, labels: Record<string, string>, namespace = NS): Endpoint => ({
    name,
    ip,
    namespace,
    labels,
    namespaceLabels: { 'kubernetes.io/metadata.name': namespace },
  });
  const part = (name: string) => ({ 'app.kubernetes.io/part-of': 'capsule-formation', 'capsule.studio/capsule': name });
  const pods: Record<string, Endpoint> = {
    orch: pod('orch', '10.1.0.1', part('orch')),
    alpha: pod('alpha', '10.1.0.2', part('alpha')),
    beta: pod('beta', '10.1.0.3', part('beta')),
    loner: pod('loner-1', '10.1.0.4', part('loner-1')),
    gateway: pod('capsule-gateway', '10.1.0.5', part('capsule-gateway')),
    bystander: pod('bystander', '10.1.0.6', { app: 'other' }),
    dns: pod('coredns', '10.2.0.10', { 'k8s-app': 'kube-dns' }, 'kube-system'),
  };
  const external: Record<string, Endpoint> = {
    api: { name: 'api.example.com', ip: '93.184.216.34' },
    fixed: { name: '203.0.113.7', ip: '203.0.113.7' },
    llm: { name: 'the inference endpoint', ip: '203.0.113.50' },
    elsewhere: { name: 'elsewhere', ip: '198.51.100.9' },
    privateNet: { name: 'private', ip: '192.168.1.20' },
  };
  const ports: [number, string][] = [
    [47311, 'TCP'],
    [47312, 'TCP'],
    [8080, 'TCP'],
    [53, 'UDP'],
    [53, 'TCP'],
    [443, 'TCP'],
    [8443, 'TCP'],
    [22, 'TCP'],
  ];
  const formationPods = new Set(['orch', 'alpha', 'beta', 'loner', 'gateway']);

  // What the formation means, written from the graph, not from the generated policies.
  function expected(from: string, to: string, port: number, protocol: string): boolean {
    const key = `${from}->${to}:${port}/${protocol}`;
    const edges = new Set([
      'orch->alpha:47311/TCP',
      'orch->beta:47312/TCP',
      'alpha->beta:47312/TCP',
      'gateway->alpha:47311/TCP',
      'gateway->loner:8080/TCP',
    ]);
    if (edges.has(key)) return true;
    if (formationPods.has(from) && to === 'dns' && port === 53) return true;
    // A host named by DNS name can only be opened by port to the public internet; an IP exactly.
    if (from === 'orch' && port === 443 && ['api', 'fixed', 'llm', 'elsewhere'].includes(to)) return true;
    // beta's HTTP driver calls its endpoint, named by IP in its manifest.
    if (from === 'beta' && to === 'llm' && port === 443) return true;
    if (from === 'orch' && to === 'fixed' && port === 8443) return true;
    // Anyone outside the formation may call the gateway on its port (through the Ingress; tokens
    // decide the rest); a capsule may not, since no allow list names it.
    if (to === 'gateway' && !formationPods.has(from) && port === 8080 && protocol === 'TCP') return true;
    // Pods outside the formation keep the namespace's usual rules unless they reach a capsule.
    if (!formationPods.has(from) && !formationPods.has(to)) return true;
    return false;
  }

  it('allows every edge and denies everything else', () => {
    const policies = kubernetesObjects(readDeployFormation(workspace()), options).filter(
      (o) => o.kind === 'NetworkPolicy',
    );
    const endpoints = { ...pods, ...external };
    const sources = [...Object.keys(pods), 'elsewhere'];
    const wrong: string[] = [];
    let checked = 0;
    for (const from of sources) {
      for (const to of Object.keys(endpoints)) {
        if (from === to) continue;
        for (const [port, protocol] of ports) {
          checked++;
          const got = allowed(policies, endpoints[from], endpoints[to], port, protocol);
          if (got !== expected(from, to, port, protocol))
            wrong.push(`${from}->${to}:${port}/${protocol} ${got ? 'allowed' : 'denied'}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(400);
  });

  it('the evaluator itself tells a denied connection from an allowed one', () => {
    const [deny] = kubernetesObjects(readDeployFormation(workspace()), options).filter(
      (o) => o.metadata.name === 'capsule-default-deny',
    );
    expect(allowed([], pods.orch, pods.alpha, 47311)).toBe(true);
    expect(allowed([deny], pods.orch, pods.alpha, 47311)).toBe(false);
    expect(allowed([deny], pods.bystander, external.api, 443)).toBe(true);
  });
});
