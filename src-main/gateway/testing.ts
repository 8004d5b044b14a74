import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentCardOf } from '../door';
import { startTestSession, type ManifestInput, type TestSession } from '../runtime/testing';
import { createGateway, type Gateway, type GatewayOptions } from './server';
import { sessionCapsule } from './session-capsule';

// Test support: a rehearsal capsule behind a gateway with a temp data folder, and callers.

export interface TestGateway {
  gateway: Gateway;
  capsule: TestSession;
  dataDir: string;
  name: string;
  /** fetch that adds the bearer token. */
  authFetch(token: string): typeof fetch;
  rpc(
    token: string | undefined,
    method: string,
    params?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  dispose(): Promise<void>;
}

let nextId = 1;

/**
 * The capsule is served as the desktop serves its sessions (sessionCapsule: called in process),
 * unless `remote` serves it as a door of another process (its URL and card only: over HTTP).
 */
export async function startTestGateway(
  manifest: ManifestInput = {},
  { remote, ...opts }: Partial<GatewayOptions> & { remote?: boolean } = {},
): Promise<TestGateway> {
  const capsule = await startTestSession(manifest);
  const dataDir = mkdtempSync(join(tmpdir(), 'capsule-gateway-'));
  const name = capsule.session.manifest.name;
  const gateway = await createGateway({
    dataDir,
    port: 0,
    resolveCapsule: (n) =>
      n !== name
        ? undefined
        : remote
          ? { url: capsule.session.url, card: agentCardOf(capsule.session), accepts: capsule.session.manifest.accepts }
          : sessionCapsule(capsule.session),
    ...opts,
  });
  const authFetch =
    (token: string): typeof fetch =>
    (input, init = {}) => {
      const headers = new Headers(init.headers);
      headers.set('authorization', `Bearer ${token}`);
      return fetch(input, { ...init, headers });
    };
  return {
    gateway,
    capsule,
    dataDir,
    name,
    authFetch,
    async rpc(token, method, params = {}, headers = {}) {
      const res = await fetch(gateway.urlsOf(name).url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'a2a-version': '1.0',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
      });
      const text = await res.text();
      let body: any = text;
      try {
        body = JSON.parse(text);
      } catch {}
      return { status: res.status, body, headers: res.headers };
    },
    async dispose() {
      await gateway.close();
      await capsule.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
