import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { Session } from '../api';

// What the formation tests share: a temp CAPSULE_HOME, manifests on disk, JSON-RPC to a door,
// trace reading, waiting on a condition, and a TCP forwarder that counts what reaches a door.

export interface Scene {
  dir: string;
  env: Record<string, string | undefined>;
  sessions: Session[];
  disposers: (() => Promise<void> | void)[];
  manifest(name: string, body: Record<string, unknown>): string;
  dispose(): Promise<void>;
}

export function scene(): Scene {
  const dir = mkdtempSync(join(tmpdir(), 'formation-'));
  const s: Scene = {
    dir,
    env: { ...process.env, CAPSULE_HOME: join(dir, 'home') },
    sessions: [],
    disposers: [],
    manifest(name, body) {
      const folder = join(dir, name);
      mkdirSync(folder, { recursive: true });
      const file = join(folder, 'murmur.yaml');
      writeFileSync(file, stringify({ name, version: '0.1.0', ...body }));
      return file;
    },
    async dispose() {
      await Promise.all(s.sessions.map((x) => x.end('test over').catch(() => undefined)));
      for (const d of s.disposers.reverse()) await d();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return s;
}

/** A rehearsal inference block: replies chosen by task text. */
export const rehearsal = (replies: { when?: string; turns: Record<string, unknown>[] }[]) => ({
  model: 'rehearsal',
  driver: { artifact: 'capsule/driver-rehearsal' },
  rehearsal: { replies },
});

let rpcId = 0;
export async function rpc(url: string, method: string, params: unknown): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

export const userMessage = (text: string) => ({ messageId: `msg-${++rpcId}`, role: 'ROLE_USER', parts: [{ text }] });

/** Every line of a session's trace.jsonl (flushed first when the session still runs). */
export function traceOf(session: Session): Record<string, any>[] {
  session.trace.flushSync();
  return readTraceFile(session.trace.path);
}

export function readTraceFile(path: string): Record<string, any>[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

export async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A TCP forwarder in front of a port: its URL reaches the door, and it counts every connection. */
export async function countingForwarder(
  targetPort: number,
): Promise<{ url: string; port: number; connections: () => number; close(): Promise<void> }> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    connections++;
    sockets.add(client);
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connections: () => connections,
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** Whether a process with this pid is still running. */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
