import { allowList, loopbackPort, matchAllow } from '../../src-shared/manifest';
import type { DeployFormation } from './formation';
import { EXPOSURES_SECRET, GATEWAY_FILE_PREFIX, TLS_SECRET } from './gateway';
import { MANIFEST_MOUNT } from './workloads';

// What a user still has to do on the cluster after the files are written (the CLI prints these,
// the Studio shows them): create the Secrets the gateway reads, then apply the folder. Values are
// never in the output; the commands name where they come from.

export interface ApplyNotesInput {
  files: readonly string[];
  namespace: string;
  /** The exposures file the gateway's Secret is created from (hashed tokens only). */
  exposuresFile: string;
  host?: string;
  out: string;
  /** The formation written: what its MCP servers need on the cluster is said too. */
  formation?: DeployFormation;
}

/**
 * What the capsules' MCP servers need on the cluster. A local server is started by the runtime
 * inside the capsule's pod, so it needs its program in the image and reaches only what the pod's
 * egress allows; a remote one is reached through its own egress policy when the allow list
 * admits it, and not at all when it does not (or when it is on this machine's loopback).
 */
export function mcpNotes(f: DeployFormation): string[] {
  const notes: string[] = [];
  for (const c of f.capsules) {
    const allow = allowList(c.manifest);
    for (const s of c.manifest.capabilities?.mcp?.servers ?? []) {
      const who = `${c.id}: MCP server ${s.name}`;
      if (s.command !== undefined) {
        notes.push(
          `${who} (${[s.command, ...(s.args ?? [])].join(' ')}) runs inside the capsule's pod, started by the runtime: its program must be in the image (the runtime image has node and the production node_modules), it reaches only what the pod's egress allows (nothing is downloaded at start: npx or uvx fetching a package is refused), and paths relative to the manifest resolve under ${MANIFEST_MOUNT}, which holds only murmur.yaml`,
        );
      } else if (matchAllow(s.url!, allow) === undefined)
        notes.push(
          `${who} (${s.url}) is not in the capsule's allow list: the runtime refuses it, and no policy opens it`,
        );
      else if (loopbackPort(s.url!) !== undefined || /^https?:\/\/(localhost|127\.|\[::1\])/i.test(s.url!))
        notes.push(
          `${who} (${s.url}) is on this machine's loopback: in the pod nothing listens there; point it at an address the cluster reaches`,
        );
    }
  }
  return notes;
}

export function applyNotes(o: ApplyNotesInput): string[] {
  const notes: string[] = o.formation ? mcpNotes(o.formation) : [];
  if (o.files.some((f) => f.startsWith(GATEWAY_FILE_PREFIX))) {
    notes.push(
      `the gateway reads its exposures from the Secret ${EXPOSURES_SECRET} (token hashes only):\n  kubectl -n ${o.namespace} create secret generic ${EXPOSURES_SECRET} --from-file=exposures.json=${o.exposuresFile}`,
    );
    if (o.host) notes.push(`its Ingress expects a TLS certificate in the Secret ${TLS_SECRET}`);
  }
  notes.push(`apply with: kubectl apply -k ${o.out}`);
  return notes;
}

/** Which version of the workspace the files hold: the published one, when there is one. */
export function versionNote(published: { short: string }): string {
  return `these files hold the published version ${published.short} (what outside callers get), not the draft; publish again to ship the draft`;
}
