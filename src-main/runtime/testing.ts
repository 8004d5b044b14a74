import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manifestSchema, type Manifest } from '../../src-shared/manifest';
import type { Session, SessionOptions } from './api';
import { startSession } from '../launch';

// Test support: a rehearsal session with its own CAPSULE_HOME, and a JSON-RPC caller.

export type ManifestInput = Record<string, unknown>;

export function rehearsalManifest(extra: ManifestInput = {}): Manifest {
  const { inference, ...rest } = extra as { inference?: Record<string, unknown> };
  return manifestSchema.parse({
    name: 'test-worker',
    version: '0.1.0',
    inference: { model: 'rehearsal', driver: { artifact: 'capsule/driver-rehearsal' }, ...inference },
    ...rest,
  });
}

export interface TestSession {
  session: Session;
  home: string;
  env: Record<string, string | undefined>;
  rpc(
    method: string,
    params?: unknown,
    opts?: { headers?: Record<string, string>; id?: number | string },
  ): Promise<any>;
  dispose(): Promise<void>;
}

let nextId = 1;

export async function startTestSession(
  extra: ManifestInput = {},
  opts: Partial<SessionOptions> = {},
): Promise<TestSession> {
  const home = mkdtempSync(join(tmpdir(), 'capsule-test-'));
  const env = { ...process.env, CAPSULE_HOME: home };
  const session = await startSession({
    manifestPath: join(home, 'murmur.yaml'),
    manifest: rehearsalManifest(extra),
    env,
    port: 0,
    ...opts,
  });
  return {
    session,
    home,
    env,
    async rpc(method, params = {}, o = {}) {
      const res = await fetch(session.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...o.headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: o.id ?? nextId++, method, params }),
      });
      return res.json();
    },
    async dispose() {
      await session.end('test over');
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Resolves once `check` holds, re-checking on every task event and trace line of the session. */
export function waitFor(session: Session, check: () => boolean, timeoutMs = 5000): Promise<void> {
  return new Promise((resolve, reject) => {
    if (check()) return resolve();
    const timer = setTimeout(() => {
      off();
      reject(new Error('timed out waiting for a task event'));
    }, timeoutMs);
    const recheck = () => {
      if (check()) {
        clearTimeout(timer);
        off();
        resolve();
      }
    };
    const offTask = session.onTaskEvent(recheck);
    const offTrace = session.trace.subscribe(() => queueMicrotask(recheck));
    const off = () => {
      offTask();
      offTrace();
    };
  });
}
