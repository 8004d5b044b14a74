import { existsSync, readFileSync, rmSync } from 'node:fs';
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

interface StudioHandle {
  workspace: string;
  core: { invoke(command: string, args: unknown): Promise<unknown> };
}

/**
 * Removes a workspace a test opened in the Studio. The Studio first goes back to the fixture's own
 * workspace, so nothing new is written into the folder (a page still open gets `conflict` for it),
 * and waits for the history steps still being written; only then does the folder go.
 */
export async function removeOpenedWorkspace(studio: StudioHandle, dir: string): Promise<void> {
  await studio.core.invoke('formation.stop', {}).catch(() => undefined);
  await studio.core.invoke('history.list', {}).catch(() => undefined);
  await studio.core.invoke('workspace.open', { dir: studio.workspace }).catch(() => undefined);
  rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}
