import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { DeployError, kubeName, readDeployFormation, type DeployFormation } from './formation';
import { gatewayObjects } from './gateway';
import type { KubeObject, SecretRef } from './objects';
import { networkPolicies } from './policies';
import { capsuleWorkloads } from './workloads';

// A formation as plain Kubernetes objects: per capsule a ConfigMap, Deployment and Service, the
// network policies the graph implies, and the gateway when capsules are exposed. Written one
// object per file with a kustomization.yaml listing them (`kubectl apply -k DIR` or `-f DIR`).

export { DeployError, readDeployFormation, type DeployFormation } from './formation';
export { parseSecretRef, type KubeObject, type SecretRef } from './objects';
export { EXPOSURES_SECRET, TLS_SECRET } from './gateway';
export { applyNotes, versionNote } from './notes';

export interface KubernetesOptions {
  namespace: string;
  image: string;
  /** ${VAR} -> the Secret key its value is read from; every referenced variable needs one. */
  secrets: Map<string, SecretRef>;
  /** Capsules exposed through the gateway, by formation id or manifest name. */
  exposed: string[];
  /** The Ingress host for the gateway. */
  host?: string;
}

export function kubernetesObjects(f: DeployFormation, o: KubernetesOptions): KubeObject[] {
  if (kubeName(o.namespace) !== o.namespace)
    throw new DeployError(`--namespace must be a DNS label (lowercase letters, digits, dashes), not "${o.namespace}"`);
  const unmapped = [...new Set(f.capsules.flatMap((c) => c.vars))].filter((v) => !o.secrets.has(v));
  if (unmapped.length)
    throw new DeployError(
      `the manifests reference ${unmapped.map((v) => `\${${v}}`).join(', ')}; name the Secret each is read from: ${unmapped.map((v) => `--secret ${v}=<secret>/<key>`).join(' ')}`,
    );
  // An exposure names a capsule by formation id or by manifest name (as `capsule expose` takes either).
  const exposedAs = new Map<string, string>();
  for (const c of f.capsules) {
    const name = [c.id, c.manifestName].find((n) => o.exposed.includes(n));
    if (name) exposedAs.set(c.id, name);
  }
  const exposed = new Set(exposedAs.keys());
  const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: o.namespace } };
  return [
    namespace,
    ...f.capsules.flatMap((c) => capsuleWorkloads(c, f, o)),
    ...networkPolicies(f, o.namespace, exposed),
    ...(exposed.size ? gatewayObjects(f, { ...o, exposedAs }) : []),
  ];
}

// `kubectl apply -f DIR` reads files in name order: the namespace's file sorts first so it exists
// before the objects in it (kustomize orders by kind anyway).
export const fileNameOf = (o: KubeObject) =>
  `${o.kind === 'Namespace' ? '00-' : ''}${o.kind.toLowerCase()}-${o.metadata.name}.yaml`;

/** The files of a deployment: one per object and a kustomization.yaml listing them, as text. */
export function kubernetesFiles(objects: KubeObject[]): { name: string; text: string; object?: KubeObject }[] {
  const files = objects.map((o) => ({
    name: fileNameOf(o),
    text: stringify(o, { lineWidth: 0, aliasDuplicateObjects: false }),
    object: o,
  }));
  const kustomization = stringify({
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    resources: files.map((f) => f.name),
  });
  return [...files, { name: 'kustomization.yaml', text: kustomization }];
}

/** Writes the files of a deployment into `dir` (created when missing); returns their names. */
/**
 * Creates dir and the parents it lacks, one level at a time from the nearest one that exists.
 * Node 20's `mkdirSync(dir, { recursive: true })` never returns for a path under /proc (the kernel
 * answers ENOENT and it retries), which would freeze the Studio on a typed folder; one level at a
 * time fails with that error instead.
 */
export function makeFolder(dir: string): void {
  const missing: string[] = [];
  for (let d = resolve(dir); !existsSync(d); d = dirname(d)) {
    missing.unshift(d);
    if (dirname(d) === d) break;
  }
  for (const d of missing) mkdirSync(d);
}

export function writeKubernetesFiles(dir: string, files: readonly { name: string; text: string }[]): string[] {
  makeFolder(dir);
  for (const f of files) writeFileSync(join(dir, f.name), f.text);
  return files.map((f) => f.name);
}

/** Writes one file per object and a kustomization.yaml; returns the file names. */
export const writeKubernetes = (dir: string, objects: KubeObject[]): string[] =>
  writeKubernetesFiles(dir, kubernetesFiles(objects));

export function deployKubernetes(workspace: string, outDir: string, o: KubernetesOptions): string[] {
  return writeKubernetes(outDir, kubernetesObjects(readDeployFormation(workspace), o));
}
