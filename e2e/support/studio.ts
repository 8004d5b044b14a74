import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';
import type {
  CommandInput,
  CommandName,
  CommandOutput,
  EventName,
  EventPayload,
  ReplyEnvelope,
  WireMessage,
} from '../../src-shared/contract';

// Starts the web shell the way a user does (`capsule studio --web`) on a temp home and port 0, and
// talks to it over the same WebSocket contract the page uses, for test setup and checks.

export const ROOT = resolve(__dirname, '../..');
export const EXAMPLE = join(ROOT, 'resources', 'example-workspace');

export interface StudioProcess {
  url: string;
  home: string;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

export async function startStudio(
  opts: { workspace?: string; home?: string; env?: Record<string, string> } = {},
): Promise<StudioProcess> {
  const home = opts.home ?? mkdtempSync(join(tmpdir(), 'studio-home-'));
  const args = [
    join(ROOT, 'bin', 'capsule.js'),
    'studio',
    '--web',
    '--port',
    '0',
    ...(opts.workspace ? ['--workspace', opts.workspace] : []),
  ];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, CAPSULE_HOME: home, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d) => (err += String(d)));
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`studio did not print its URL within 60 s\n${err}`)), 60_000);
    child.stdout!.on('data', (d) => {
      out += String(d);
      const m = /studio: (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`studio exited with ${code}\n${err}`));
    });
  });
  return {
    url,
    home,
    stderr: () => err,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      if (!opts.home) rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The ports the example's workers pin; copies for tests get free ones instead. */
export const EXAMPLE_PORTS = [47311, 47312];

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolvePort(port));
    });
  });
}

/**
 * A fresh copy of the example workspace in a temp folder. The pinned worker ports (and the
 * coordinator's allow entries for them) are moved to free ports, so parallel tests and a Studio
 * the developer has open never collide.
 */
export async function copyExampleWorkspace(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'studio-ws-'));
  mkdirSync(dir, { recursive: true });
  cpSync(EXAMPLE, dir, { recursive: true });
  const ports = await Promise.all(EXAMPLE_PORTS.map(() => freePort()));
  for (const file of readdirSync(join(dir, 'capsules'))) {
    const path = join(dir, 'capsules', file);
    let text = readFileSync(path, 'utf8');
    EXAMPLE_PORTS.forEach((p, i) => (text = text.split(String(p)).join(String(ports[i]))));
    writeFileSync(path, text);
  }
  return dir;
}

/** A contract client over the web shell's socket (what the page uses), for test setup and checks. */
export interface ContractConnection {
  invoke<K extends CommandName>(cmd: K, input: CommandInput<K>): Promise<CommandOutput<K>>;
  next<E extends EventName>(
    event: E,
    match?: (p: EventPayload<E>) => boolean,
    timeoutMs?: number,
  ): Promise<EventPayload<E>>;
  close(): void;
}

export async function connectContract(url: string): Promise<ContractConnection> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`, { origin: url });
  await new Promise<void>((r, j) => {
    ws.once('open', () => r());
    ws.once('error', j);
  });
  let id = 0;
  const pending = new Map<number, (r: ReplyEnvelope) => void>();
  const waiters = new Set<(m: Extract<WireMessage, { type: 'event' }>) => void>();
  ws.on('message', (data) => {
    const msg = JSON.parse(String(data)) as WireMessage;
    if (msg.type === 'reply') pending.get(msg.id)?.(msg);
    else for (const w of [...waiters]) w(msg);
  });
  return {
    invoke(cmd, input) {
      const n = ++id;
      ws.send(JSON.stringify({ type: 'invoke', id: n, cmd, input }));
      return new Promise((r, j) =>
        pending.set(n, (reply) => {
          pending.delete(n);
          if (reply.ok) r(reply.value as never);
          else j(new Error(`${cmd}: ${reply.error.code}: ${reply.error.message}`));
        }),
      );
    },
    next(event, match, timeoutMs = 15_000) {
      return new Promise((r, j) => {
        const timer = setTimeout(
          () => (waiters.delete(w), j(new Error(`no ${event} within ${timeoutMs} ms`))),
          timeoutMs,
        );
        const w = (m: Extract<WireMessage, { type: 'event' }>) => {
          if (m.event !== event || (match && !match(m.payload as never))) return;
          clearTimeout(timer);
          waiters.delete(w);
          r(m.payload as never);
        };
        waiters.add(w);
      });
    },
    close: () => ws.close(),
  };
}
