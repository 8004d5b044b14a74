import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KUBE_MODELS as models } from './kube-schemas.fixture';
import { applyNotes, kubernetesObjects, readDeployFormation } from '.';
import { egressPolicyOf } from './policies';
import { allowed, type Endpoint } from './policy-eval.fixture';

// A capsule using MCP servers, deployed: a local server runs in the capsule's pod (the notes say
// what that needs), each remote server its allow list admits gets an egress NetworkPolicy of its
// own (the edge), and one the allow list does not admit gets none.

const NS = 'agents';
const TOOLED = `name: tooled
version: "1"
inference:
  transport: embedded
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
capabilities:
  network:
    allow:
      - https://mcp.example.com/mcp
      - http://203.0.113.9:9000
  mcp:
    servers:
      - name: files
        command: node
        args: [node_modules/@modelcontextprotocol/server-filesystem/dist/index.js, ./data]
      - name: Search
        url: https://mcp.example.com/mcp
        headers: { Authorization: "Bearer \${SEARCH_TOKEN}" }
      - name: fixed
        url: http://203.0.113.9:9000/mcp
      - name: refused
        url: https://other.example.org/mcp
`;

function formation() {
  const dir = mkdtempSync(join(tmpdir(), 'capsule-deploy-mcp-'));
  mkdirSync(join(dir, 'capsules'));
  writeFileSync(join(dir, 'capsules', 'tooled.yaml'), TOOLED);
  writeFileSync(
    join(dir, 'formation.yaml'),
    'capsules:\n  - id: tooled\n    manifest: capsules/tooled.yaml\nremotes: []\n',
  );
  return readDeployFormation(dir);
}
const options = {
  namespace: NS,
  image: 'registry.example.com/capsule-runtime:1.0',
  secrets: new Map([['SEARCH_TOKEN', { secret: 'mcp', key: 'search' }]]),
  exposed: [],
};

describe('deploy kubernetes with MCP servers', () => {
  it('gives each remote server the allow list admits its own egress policy, valid against the API schema', () => {
    const f = formation();
    const policies = kubernetesObjects(f, options).filter((o) => o.kind === 'NetworkPolicy') as any[];
    for (const p of policies)
      expect(() => new models.NetworkPolicy(p as never).validate(), p.metadata.name).not.toThrow();
    expect(policies.map((p) => p.metadata.name).sort()).toEqual([
      'capsule-default-deny',
      'tooled-egress',
      'tooled-mcp-fixed',
      'tooled-mcp-search',
    ]);
    const byName = (n: string) => policies.find((p) => p.metadata.name === n);
    expect(byName('tooled-mcp-search').spec).toEqual({
      podSelector: { matchLabels: { 'capsule.studio/capsule': 'tooled' } },
      policyTypes: ['Egress'],
      egress: [
        {
          to: [{ ipBlock: { cidr: '0.0.0.0/0', except: expect.arrayContaining(['10.0.0.0/8', '192.168.0.0/16']) } }],
          ports: [{ protocol: 'TCP', port: 443 }],
        },
      ],
    });
    expect(byName('tooled-mcp-fixed').spec.egress).toEqual([
      { to: [{ ipBlock: { cidr: '203.0.113.9/32' } }], ports: [{ protocol: 'TCP', port: 9000 }] },
    ]);
    // The search server's URL is opened by its own policy only, not also by the capsule's.
    expect(JSON.stringify(byName('tooled-egress').spec.egress)).not.toContain('"port":443');
    // The Studio's export preview names the policy that lets each edge out.
    const tooled = f.capsules[0];
    expect(egressPolicyOf(tooled, 'https://mcp.example.com/mcp')).toBe('tooled-mcp-search');
    expect(egressPolicyOf(tooled, 'http://203.0.113.9:9000')).toBe('tooled-egress');
  });

  it('lets the pod reach the admitted servers and nothing else', () => {
    const policies = kubernetesObjects(formation(), options).filter((o) => o.kind === 'NetworkPolicy');
    const pod: Endpoint = {
      name: 'tooled',
      ip: '10.1.0.1',
      namespace: NS,
      labels: { 'app.kubernetes.io/part-of': 'capsule-formation', 'capsule.studio/capsule': 'tooled' },
      namespaceLabels: { 'kubernetes.io/metadata.name': NS },
    };
    const at = (ip: string): Endpoint => ({ name: ip, ip });
    expect(allowed(policies, pod, at('93.184.216.34'), 443)).toBe(true); // mcp.example.com, by port: a policy names no host
    expect(allowed(policies, pod, at('203.0.113.9'), 9000)).toBe(true);
    expect(allowed(policies, pod, at('203.0.113.10'), 9000)).toBe(false);
    expect(allowed(policies, pod, at('93.184.216.34'), 8443)).toBe(false);
    expect(allowed(policies, pod, at('192.168.1.20'), 443)).toBe(false);
  });

  it('keeps the servers in the pod manifest and says what a local one needs and why a refused one is not opened', () => {
    const f = formation();
    const cm = kubernetesObjects(f, options).find((o) => o.kind === 'ConfigMap') as any;
    expect(cm.data['murmur.yaml']).toContain('command: node');
    expect(cm.data['murmur.yaml']).toContain('${SEARCH_TOKEN}');
    const notes = applyNotes({ files: [], namespace: NS, exposuresFile: '/x', out: '/out', formation: f });
    expect(notes[0]).toMatch(
      /^tooled: MCP server files \(node node_modules\/.* \.\/data\) runs inside the capsule's pod.*program must be in the image.*under \/etc\/capsule/,
    );
    expect(notes[1]).toBe(
      "tooled: MCP server refused (https://other.example.org/mcp) is not in the capsule's allow list: the runtime refuses it, and no policy opens it",
    );
    expect(notes.at(-1)).toBe('apply with: kubectl apply -k /out');
  });
});
