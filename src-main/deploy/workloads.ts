import { editManifestSource } from '../manifest';
import type { ManifestEditOp } from '../../src-shared/manifest';
import type { DeployCapsule, DeployFormation } from './formation';
import { capsuleLabels, containerSecurity, HOME_DIR, meta, type KubeObject, type SecretRef } from './objects';

// Per capsule: a ConfigMap holding its manifest (allow entries for other capsules rewritten to
// their Service names), a Deployment running `capsule run` on it, and a Service for its door.

export const MANIFEST_MOUNT = '/etc/capsule';

export interface WorkloadOptions {
  namespace: string;
  image: string;
  secrets: Map<string, SecretRef>;
}

/** The address other pods reach a capsule's door at. */
export function serviceUrl(c: DeployCapsule, namespace: string): string {
  return `http://${c.name}.${namespace}.svc.cluster.local:${c.port}`;
}

/** The manifest text for the cluster: every allow entry that names another capsule points at its Service. */
export function clusterManifest(c: DeployCapsule, f: DeployFormation, namespace: string): string {
  const ops: ManifestEditOp[] = [];
  for (const e of f.edges.filter((x) => x.source === c.id && x.kind === 'capsule')) {
    const target = f.capsules.find((x) => x.id === e.target)!;
    ops.push({ op: 'removeAllow', entry: e.allowEntry }, { op: 'addAllow', entry: serviceUrl(target, namespace) });
  }
  return ops.length ? editManifestSource(c.source, ops) : c.source;
}

/** `--peer name=url` for every capsule this one has an edge to, so delegate_task finds it by name. */
function peerArgs(c: DeployCapsule, f: DeployFormation, namespace: string): string[] {
  const targets = [...new Set(f.edges.filter((e) => e.source === c.id && e.kind === 'capsule').map((e) => e.target))];
  return targets.flatMap((id) => {
    const t = f.capsules.find((x) => x.id === id)!;
    return [...new Set([t.id, t.manifestName])].flatMap((n) => ['--peer', `${n}=${serviceUrl(t, namespace)}`]);
  });
}

export function capsuleWorkloads(c: DeployCapsule, f: DeployFormation, o: WorkloadOptions): KubeObject[] {
  const labels = capsuleLabels(c.name);
  const configMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: meta(`${c.name}-manifest`, o.namespace, labels),
    data: { 'murmur.yaml': clusterManifest(c, f, o.namespace) },
  };
  // ${VAR} values: read from the named Secrets by the kubelet; the manifest keeps the reference.
  const env = [
    { name: 'CAPSULE_HOME', value: HOME_DIR },
    // The image's HEALTHCHECK asks this port for the card (for `docker run`; Kubernetes uses the probes).
    { name: 'CAPSULE_DOOR_PORT', value: String(c.port) },
    ...c.vars.map((v) => {
      const ref = o.secrets.get(v)!;
      return { name: v, valueFrom: { secretKeyRef: { name: ref.secret, key: ref.key } } };
    }),
  ];
  const probe = {
    httpGet: { path: '/.well-known/agent-card.json', port: 'door' },
    periodSeconds: 10,
    timeoutSeconds: 3,
  };
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta(c.name, o.namespace, labels),
    spec: {
      // One session per capsule, as on a laptop: a second replica would be a second capsule.
      replicas: 1,
      strategy: { type: 'Recreate' },
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          automountServiceAccountToken: false,
          securityContext: { runAsNonRoot: true, fsGroup: 10001 },
          containers: [
            {
              name: 'capsule',
              image: o.image,
              args: [
                'run',
                '--manifest',
                `${MANIFEST_MOUNT}/murmur.yaml`,
                '--port',
                String(c.port),
                '--host',
                '0.0.0.0',
                ...peerArgs(c, f, o.namespace),
              ],
              ports: [{ name: 'door', containerPort: c.port, protocol: 'TCP' }],
              env,
              readinessProbe: probe,
              livenessProbe: { ...probe, initialDelaySeconds: 10 },
              resources: { requests: { cpu: '50m', memory: '128Mi' }, limits: { memory: '512Mi' } },
              securityContext: containerSecurity,
              volumeMounts: [
                { name: 'manifest', mountPath: MANIFEST_MOUNT, readOnly: true },
                { name: 'home', mountPath: HOME_DIR },
                { name: 'tmp', mountPath: '/tmp' },
              ],
            },
          ],
          volumes: [
            { name: 'manifest', configMap: { name: configMap.metadata.name } },
            { name: 'home', emptyDir: {} },
            { name: 'tmp', emptyDir: {} },
          ],
        },
      },
    },
  };
  const service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta(c.name, o.namespace, labels),
    spec: { selector: labels, ports: [{ name: 'door', port: c.port, targetPort: 'door', protocol: 'TCP' }] },
  };
  return [configMap, deployment, service];
}
