import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// Test support: the reference MCP servers nobody here wrote (devDependencies), run with this
// Node from node_modules, over stdio (a manifest's command) or Streamable HTTP (a process here).

const require = createRequire(__filename);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));
export const EVERYTHING = join(packageDir('@modelcontextprotocol/server-everything'), 'dist', 'index.js');
export const FILESYSTEM = join(packageDir('@modelcontextprotocol/server-filesystem'), 'dist', 'index.js');

/** A manifest entry for server-everything over stdio. */
export const everythingStdio = (name = 'everything', more: Record<string, unknown> = {}) => ({
  name,
  command: process.execPath,
  args: [EVERYTHING, 'stdio'],
  ...more,
});

/** A manifest entry for server-filesystem over stdio, serving `root` only. */
export const filesystemStdio = (root: string, more: Record<string, unknown> = {}) => ({
  name: 'files',
  command: process.execPath,
  args: [FILESYSTEM, root],
  ...more,
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const p = (srv.address() as { port: number }).port;
      srv.close(() => resolve(p));
    });
  });
}

/** server-everything over Streamable HTTP on a free port: its /mcp URL, and close(). */
export async function everythingHttp(): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: { PATH: process.env.PATH, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`server-everything did not start: ${err}`)), 15_000);
    child.stderr!.on('data', (b: Buffer) => {
      err += b.toString();
      if (err.includes('listening on port')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${err}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    close: () =>
      new Promise((r) => {
        if (child.exitCode !== null) return r();
        child.once('exit', () => r());
        child.kill('SIGTERM');
      }),
  };
}
