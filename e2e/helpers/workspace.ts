import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parse } from 'yaml';

// Looks at the workspace on disk, the way a user with a text editor would, to check that the
// graph and the files are the same truth.

export interface ManifestOnDisk {
  name?: string;
  role?: string;
  network?: { internal_port?: number };
  exports?: { peer_tasks?: { accept?: boolean } };
  capabilities?: { network?: { allow?: string[] } };
  [key: string]: unknown;
}

export function readManifest(workspace: string, relPath: string): ManifestOnDisk {
  return parse(readFileSync(join(workspace, relPath), 'utf8')) as ManifestOnDisk;
}

export function manifestExists(workspace: string, relPath: string): boolean {
  return existsSync(join(workspace, relPath));
}

export const allowOf = (m: ManifestOnDisk): string[] => m.capabilities?.network?.allow ?? [];

/** A port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The example pins its workers to fixed ports; tests run side by side, so each test moves the
 * pins (and the coordinator's allow entries) to free ports before the formation is launched.
 */
export async function repinExamplePorts(workspace: string): Promise<void> {
  const replace = new Map<string, string>();
  for (const worker of ['researcher', 'writer']) {
    const file = join(workspace, 'capsules', `${worker}.yaml`);
    const text = readFileSync(file, 'utf8');
    const old = /internal_port:\s*(\d+)/.exec(text)?.[1];
    if (!old) continue;
    const port = String(await freePort());
    replace.set(old, port);
    writeFileSync(file, text.replace(`internal_port: ${old}`, `internal_port: ${port}`));
  }
  const coordinator = join(workspace, 'capsules', 'coordinator.yaml');
  let text = readFileSync(coordinator, 'utf8');
  for (const [from, to] of replace) text = text.split(`:${from}`).join(`:${to}`);
  writeFileSync(coordinator, text);
}
