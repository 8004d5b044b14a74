import { EXPOSURES_SECRET, GATEWAY_FILE_PREFIX, TLS_SECRET } from './gateway';

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
}

export function applyNotes(o: ApplyNotesInput): string[] {
  const notes: string[] = [];
  if (o.files.some((f) => f.startsWith(GATEWAY_FILE_PREFIX))) {
    notes.push(`the gateway reads its exposures from the Secret ${EXPOSURES_SECRET} (token hashes only):\n  kubectl -n ${o.namespace} create secret generic ${EXPOSURES_SECRET} --from-file=exposures.json=${o.exposuresFile}`);
    if (o.host) notes.push(`its Ingress expects a TLS certificate in the Secret ${TLS_SECRET}`);
  }
  notes.push(`apply with: kubectl apply -k ${o.out}`);
  return notes;
}

/** Which version of the workspace the files hold: the published one, when there is one. */
export function versionNote(published: { short: string }): string {
  return `these files hold the published version ${published.short} (what outside callers get), not the draft; publish again to ship the draft`;
}
