import type { DeployFormation } from './formation';
import { capsuleLabels, containerSecurity, GATEWAY_NAME, HOME_DIR, meta, type KubeObject } from './objects';
import { GATEWAY_PORT } from './policies';
import { serviceUrl } from './workloads';

// The gateway for the exposed capsules: `capsule serve` in gateway-only mode, forwarding to the
// capsules' Services. Its exposures (capsule names and token hashes, never a token) come from a
// Secret the user makes from their own exposures.json; an Ingress fronts it when a host is given.

/** The Secret holding exposures.json (made with kubectl from the local gateway's file). */
export const EXPOSURES_SECRET = 'capsule-gateway-exposures';
export const TLS_SECRET = 'capsule-gateway-tls';
/** The gateway's Deployment file (its presence means capsules are exposed). */
export const GATEWAY_FILE_PREFIX = 'deployment-capsule-gateway';
const DATA_DIR = `${HOME_DIR}/gateway`;

export function gatewayObjects(
  f: DeployFormation,
  o: { namespace: string; image: string; host?: string; exposedAs: Map<string, string> },
): KubeObject[] {
  const labels = capsuleLabels(GATEWAY_NAME);
  const targets = f.capsules.filter((c) => o.exposedAs.has(c.id));
  const args = [
    'serve',
    '--host',
    '0.0.0.0',
    '--gateway-port',
    String(GATEWAY_PORT),
    '--data',
    DATA_DIR,
    ...targets.flatMap((c) => ['--capsule-url', `${o.exposedAs.get(c.id)}=${serviceUrl(c, o.namespace)}`]),
    ...(o.host ? ['--public-origin', `https://${o.host}`, '--trust-proxy'] : []),
  ];
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta(GATEWAY_NAME, o.namespace, labels),
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          automountServiceAccountToken: false,
          securityContext: { runAsNonRoot: true, fsGroup: 10001 },
          containers: [
            {
              name: 'gateway',
              image: o.image,
              args,
              ports: [{ name: 'gateway', containerPort: GATEWAY_PORT, protocol: 'TCP' }],
              env: [{ name: 'CAPSULE_HOME', value: HOME_DIR }],
              readinessProbe: { tcpSocket: { port: 'gateway' }, periodSeconds: 10 },
              resources: { requests: { cpu: '50m', memory: '128Mi' }, limits: { memory: '512Mi' } },
              securityContext: containerSecurity,
              volumeMounts: [
                { name: 'home', mountPath: HOME_DIR },
                // Only the one file: the gateway writes its access log and signing key beside it.
                {
                  name: 'exposures',
                  mountPath: `${DATA_DIR}/exposures.json`,
                  subPath: 'exposures.json',
                  readOnly: true,
                },
                { name: 'tmp', mountPath: '/tmp' },
              ],
            },
          ],
          volumes: [
            { name: 'home', emptyDir: {} },
            {
              name: 'exposures',
              secret: { secretName: EXPOSURES_SECRET, items: [{ key: 'exposures.json', path: 'exposures.json' }] },
            },
            { name: 'tmp', emptyDir: {} },
          ],
        },
      },
    },
  };
  const service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta(GATEWAY_NAME, o.namespace, labels),
    spec: {
      selector: labels,
      ports: [{ name: 'gateway', port: GATEWAY_PORT, targetPort: 'gateway', protocol: 'TCP' }],
    },
  };
  const out: KubeObject[] = [deployment, service];
  if (o.host) {
    out.push({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: meta(GATEWAY_NAME, o.namespace, labels),
      spec: {
        // TLS ends at the Ingress controller; the gateway behind it advertises https://<host>.
        tls: [{ hosts: [o.host], secretName: TLS_SECRET }],
        rules: [
          {
            host: o.host,
            http: {
              paths: [
                {
                  path: '/',
                  pathType: 'Prefix',
                  backend: { service: { name: GATEWAY_NAME, port: { name: 'gateway' } } },
                },
              ],
            },
          },
        ],
      },
    });
  }
  return out;
}
