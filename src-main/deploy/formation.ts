import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { allowList, capsulePort, deriveEdges, type GraphEdge, type Manifest } from '../../src-shared/manifest';
import { DRIVER_ARTIFACTS } from '../../src-shared/manifest';
import { gatewayOf } from '../drivers/gateway';
import { formatIssues, parseManifest } from '../manifest';
import { FORMATION_FILE, landsInside, readFormation } from '../workspace';

// The formation as a cluster sees it, read from the workspace without launching anything: each
// capsule's manifest text exactly as written (its ${VAR} references stay references; their values
// come from Secrets in the cluster and are never read here), its door port and its edges.

/** The port a capsule's door listens on in its pod when its manifest pins none. */
export const DEFAULT_DOOR_PORT = 8080;

export interface DeployCapsule {
  /** The formation id. */
  id: string;
  /** The manifest's name (delegate_task may use it as well as the id). */
  manifestName: string;
  /** The Kubernetes name of its objects (a DNS label). */
  name: string;
  source: string;
  manifest: Manifest;
  port: number;
  /** The ${VAR} names its manifest references. */
  vars: string[];
  /** Where its HTTP inference driver sends requests (the pod's egress must reach it too). */
  inferenceEndpoint?: string;
}

export interface DeployFormation {
  capsules: DeployCapsule[];
  edges: GraphEdge[];
}

export class DeployError extends Error {}

const REF = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The ${VAR} names a manifest text references ("$${" is a literal, not a reference). */
export function referencedVars(source: string): string[] {
  const names = new Set<string>();
  for (const m of source.matchAll(REF)) if (m[1]) names.add(m[1]);
  return [...names].sort();
}

/** A DNS-1123 label from a capsule id: lowercase letters, digits and dashes, at most 63. */
export function kubeName(id: string): string {
  const name = id
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
  if (!name) throw new DeployError(`capsule id "${id}" has no letters or digits to name its Kubernetes objects with`);
  // A Service name is an RFC 1035 label: it must start with a letter (a Deployment would take
  // "1worker", its Service would not, and the export would fail only at kubectl apply).
  if (!/^[a-z]/.test(name))
    throw new DeployError(
      `capsule id "${id}" would name its Kubernetes Service "${name}", but a Service name must start with a letter; rename the capsule (e.g. "worker-${name}")`,
    );
  return name;
}

/** The endpoint an HTTP driver calls (the provider's public one unless the manifest names another). */
function inferenceEndpoint(manifest: Manifest): string | undefined {
  if (manifest.inference.transport !== 'http') return undefined;
  const kind = (DRIVER_ARTIFACTS as Record<string, string>)[manifest.inference.driver.artifact];
  if (!kind || kind === 'rehearsal' || kind === 'process') return undefined;
  return gatewayOf(manifest, kind as never).endpoint;
}

export function readDeployFormation(workspace: string): DeployFormation {
  const dir = resolve(workspace);
  const file = join(dir, FORMATION_FILE);
  if (!existsSync(file)) throw new DeployError(`${dir} has no ${FORMATION_FILE}`);
  const formation = readFormation(readFileSync(file, 'utf8'));
  if (formation.issues.length)
    throw new DeployError(
      `${file}: ${formation.issues.map((i) => `${i.line ? `line ${i.line}: ` : ''}${i.message}`).join('; ')}`,
    );
  if (formation.capsules.length === 0) throw new DeployError(`${file} has no capsules to deploy`);
  const byName = new Map<string, string>();
  const capsules = formation.capsules.map((c): DeployCapsule => {
    const path = resolve(dir, c.manifest);
    // The export shows manifest text: one that leads out of the workspace (by .. or a symbolic
    // link) would show a file from elsewhere on this machine.
    if (!landsInside(dir, path)) throw new DeployError(`${c.id}: ${c.manifest} leads outside the workspace folder`);
    if (!existsSync(path)) throw new DeployError(`${c.id}: ${path} does not exist`);
    const source = readFileSync(path, 'utf8');
    const vars = referencedVars(source);
    // Parsed with stand-ins for the variables: only the structure (ports, allow list, exports) is
    // used here, and no value from this machine's environment can end up in the output.
    const loaded = parseManifest(source, path, Object.fromEntries(vars.map((v) => [v, `capsule-deploy-var-${v}`])));
    if (!loaded.ok) throw new DeployError(`${c.id} (${c.manifest}) has problems:\n${formatIssues(loaded.issues)}`);
    const manifest = loaded.manifest;
    if (allowList(manifest).some((e) => e.includes('capsule-deploy-var-')))
      throw new DeployError(
        `${c.id}: an allow entry comes from a \${VAR}; write the address itself so the network policies can be derived from it`,
      );
    const name = kubeName(c.id);
    const clash = byName.get(name);
    if (clash)
      throw new DeployError(`capsules "${clash}" and "${c.id}" would both be named ${name} on the cluster; rename one`);
    byName.set(name, c.id);
    const endpoint = inferenceEndpoint(manifest);
    if (endpoint?.includes('capsule-deploy-var-'))
      throw new DeployError(
        `${c.id}: the driver's gateway.endpoint comes from a \${VAR}; write the address itself so the network policies can let the pod reach it`,
      );
    const port = capsulePort({ id: c.id, name: manifest.name, manifest }) ?? DEFAULT_DOOR_PORT;
    return {
      id: c.id,
      manifestName: manifest.name,
      name,
      source,
      manifest,
      port,
      vars,
      ...(endpoint ? { inferenceEndpoint: endpoint } : {}),
    };
  });
  const edges = deriveEdges(
    capsules.map((c) => ({ id: c.id, name: c.manifestName, manifest: c.manifest })),
    [],
  );
  return { capsules, edges };
}
