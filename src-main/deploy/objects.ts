// The shapes shared by the generated objects: labels, the pod security every container runs
// with, and the names the Secret mappings are given in. Objects are plain data (what `kubectl
// apply` reads); the tests validate each against the Kubernetes API schemas.

export type KubeObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
} & Record<string, unknown>;

/** Every pod of the formation carries this label: the namespace's default deny selects it. */
export const PART_OF = { 'app.kubernetes.io/part-of': 'capsule-formation' } as const;
/** The label naming one capsule's pods (the network policies select by it). */
export const CAPSULE_LABEL = 'capsule.studio/capsule';
export const GATEWAY_NAME = 'capsule-gateway';
/** Where the records of a pod's sessions go (an emptyDir: a pod's records live as long as the pod). */
export const HOME_DIR = '/var/lib/capsule';

export const capsuleLabels = (name: string) => ({ ...PART_OF, [CAPSULE_LABEL]: name, 'app.kubernetes.io/name': name });

/** `${VAR}` -> the Secret key it is read from. */
export interface SecretRef {
  secret: string;
  key: string;
}

/** Parses `VAR=secretName/key` (the --secret option). */
export function parseSecretRef(text: string): [string, SecretRef] | undefined {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)=([a-z0-9]([-a-z0-9.]*[a-z0-9])?)\/([-._a-zA-Z0-9]+)$/.exec(text);
  return m ? [m[1], { secret: m[2], key: m[4] }] : undefined;
}

/** Non-root, no privilege escalation, read-only root filesystem, no Linux capabilities. */
export const containerSecurity = {
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  runAsNonRoot: true,
  runAsUser: 10001,
  runAsGroup: 10001,
  capabilities: { drop: ['ALL'] },
  seccompProfile: { type: 'RuntimeDefault' },
};

export const meta = (name: string, namespace: string, labels: Record<string, string>) => ({ name, namespace, labels });
