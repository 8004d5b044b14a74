import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// Finding trace files under a records root: `<root>/<session id>/trace.jsonl`, and delegated
// sub-capsules' folders nested under their parent's (children/<name>-<hex>/trace.jsonl).

const MAX_DEPTH = 4;

/** Every trace.jsonl under `root` (absolute paths), parents before their children. */
export function findTraceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    let entries: import('node:fs').Dirent[];
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
