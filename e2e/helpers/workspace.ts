import { existsSync, readFileSync } from 'node:fs';
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
