import { existsSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readTraceLinesAsync } from './jsonl';

// Finding trace files under a records root: `<root>/<session id>/trace.jsonl`, and delegated
// sub-capsules' folders nested under their parent's (children/<name>-<hex>/trace.jsonl).

const MAX_DEPTH = 4;

/** Every trace.jsonl under `root` (absolute paths), parents before their children. */
export function findTraceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    const trace = join(dir, 'trace.jsonl');
    if (depth > 0 && entries.some((e) => e.name === 'trace.jsonl' && e.isFile())) out.push(trace);
    if (depth >= MAX_DEPTH) return;
    for (const e of entries) if (e.isDirectory()) walk(join(dir, e.name), depth + 1);
  };
  if (existsSync(root) && statSync(root).isDirectory()) walk(root, 0);
  return out;
}

/** findTraceFiles for the main process at run time: the folders are read off the main thread. */
export async function findTraceFilesAsync(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    if (depth > 0 && entries.some((e) => e.name === 'trace.jsonl' && e.isFile())) out.push(join(dir, 'trace.jsonl'));
    if (depth >= MAX_DEPTH) return;
    for (const e of entries) if (e.isDirectory()) await walk(join(dir, e.name), depth + 1);
  };
  await walk(root, 0);
  return out;
}

/**
 * The trace of a session the index does not know (or that it lost), looked for under `root` at
 * run time: each file's session is its first event's, as every reader takes it (trace/line.ts).
 */
export async function findTraceOfSession(root: string, sessionId: string): Promise<string | undefined> {
  for (const path of await findTraceFilesAsync(root)) {
    const session = await readTraceLinesAsync(path, 0, 4096).then(
      (r) => r.session,
      () => undefined,
    );
    if (session === sessionId) return path;
  }
  return undefined;
}
