import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { createExposureStore, type ExposureStore } from '../../gateway';
import { createTestStudio, type TestStudio } from '../../workspace/test-studio';
import { startRemoteStudio, STUDIO_TOKEN_NAME, type RemoteStudio } from './remote';
import { invokeOver, openSocket } from './socket.fixture';

// The Studio's contract for remote Studios: only with the Studio token, refused with 401 for a
// wrong, foreign or revoked one; the web shell's Host/Origin checks, widened to --public-origin.

let studio: TestStudio | undefined;
let remote: RemoteStudio | undefined;
let tokens: ExposureStore | undefined;
afterEach(async () => {
  await remote?.dispose();
  tokens?.dispose();
  await studio?.dispose();
  remote = studio = tokens = undefined;
});

const open = openSocket;
const invoke = (ws: WebSocket, cmd: string) => invokeOver(ws, cmd);

async function setup(publicOrigin?: string) {
  studio = await createTestStudio();
  tokens = createExposureStore(mkdtempSync(join(tmpdir(), 'capsule-remote-')));
  const { token } = tokens.enable(STUDIO_TOKEN_NAME);
  const other = tokens.enable('some-capsule').token;
  remote = await startRemoteStudio({
    core: studio.core,
    tokens,
    port: 0,
    scope: { allowHostCommands: false, workspaces: [studio.workspace] },
    ...(publicOrigin ? { publicOrigin } : {}),
  });
  return { token, other, url: `http://127.0.0.1:${remote.port}` };
}

describe('remote Studio access', () => {
  it('refuses a missing, wrong or foreign token with 401 and serves the contract for the right one', async () => {
    const { token, other, url } = await setup();
    expect(remote!.app.server.address()).toMatchObject({ address: '127.0.0.1' });
    await expect(open(url, {})).rejects.toThrow('HTTP 401');
    await expect(open(url, { authorization: 'Bearer capsule_wrong' })).rejects.toThrow('HTTP 401');
    // A capsule's gateway token from the same store opens no Studio.
    await expect(open(url, { authorization: `Bearer ${other}` })).rejects.toThrow('HTTP 401');
    const ws = await open(url, { authorization: `Bearer ${token}` });
    expect(await invoke(ws, 'formation.get')).toMatchObject({ ok: true, value: { capsules: expect.any(Array) } });
    // An attached Studio cannot make this host attach to others (with tokens of its own choosing).
    expect(await invoke(ws, 'runtimes.list')).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    ws.close();
  });

  it('a revoked token is refused at once and closes the Studios that used it', async () => {
    const { token, url } = await setup();
    const ws = await open(url, { authorization: `Bearer ${token}` });
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    expect(tokens!.revoke(STUDIO_TOKEN_NAME)).toBe(true);
    expect(await closed).toBe(4401);
    await expect(open(url, { authorization: `Bearer ${token}` })).rejects.toThrow('HTTP 401');
  });

  it('keeps the web shell Host and Origin checks, widened only to the public origin', async () => {
    const { token, url } = await setup('https://studio.example.com');
    const auth = { authorization: `Bearer ${token}` };
    await expect(open(url, { ...auth, origin: 'http://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(open(url, { ...auth, host: `rebound.example:${remote!.port}` })).rejects.toThrow('HTTP 403');
    // Through the proxy: its host and origin are this Studio's.
    const proxied = await open(url, { ...auth, host: 'studio.example.com', origin: 'https://studio.example.com' });
    expect(await invoke(proxied, 'formation.get')).toMatchObject({ ok: true });
    proxied.close();
    expect(remote!.url).toBe('https://studio.example.com');
  });
});
