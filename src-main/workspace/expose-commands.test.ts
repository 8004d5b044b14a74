import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyCardSignature } from '../gateway';
import { createTestStudio, type TestStudio } from './test-studio';

// The Expose commands through the Studio core: enable shows the token once, calls show up live
// in the access log, rotate and disable take effect at once, configure warns off loopback.

let t: TestStudio;
beforeAll(async () => {
  t = await createTestStudio();
  await t.core.invoke('capsule.launch', { id: 'writer' });
});
afterAll(() => t.dispose());

const send = (url: string, token: string) =>
  fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
    }),
  });

describe('expose commands', () => {
  it('enable: a URL, a one-time token and a curl call; the call shows in the live access log', async () => {
    const answer = await t.core.invoke('expose.enable', { capsuleId: 'writer' });
    expect(answer.exposure).toMatchObject({ capsuleId: 'writer', running: true, compat03: false });
    expect(answer.exposure.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/a2a\/capsules\/writer\/$/);
    expect(answer.curl).toContain(answer.token);
    expect(answer.exposure.mcpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(JSON.parse(answer.mcpConfig).mcpServers['capsule-studio']).toEqual({
      type: 'http',
      url: answer.exposure.mcpUrl,
      headers: { Authorization: `Bearer ${answer.token}` },
    });
    const list = await t.core.invoke('expose.list', {});
    expect(JSON.stringify(list)).not.toContain(answer.token);
    expect(list.gateway).toMatchObject({ running: true, loopback: true });

    const accessed = t.next('exposure.accessed', (p) => p.entry.method === 'SendMessage');
    const res = (await (await send(answer.exposure.url, answer.token)).json()) as any;
    expect(res.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const { entry } = await accessed;
    expect(entry).toMatchObject({ capsule: 'writer', tokenId: answer.exposure.tokenId, outcome: 'ok', status: 200 });
    expect(await t.core.invoke('expose.accessLog', { capsuleId: 'writer' })).toContainEqual(entry);
    expect(JSON.stringify(t.events)).not.toContain(answer.token);
    // The access log is written off the main thread: wait for the call's line, then look in the file.
    const logFile = join(t.home, 'data', 'gateway', 'gateway-access.jsonl');
    await vi.waitFor(() => expect(readFileSync(logFile, 'utf8')).toContain('"method":"SendMessage"'));
    expect(readFileSync(logFile, 'utf8')).not.toContain(answer.token);
  });

  it('card preview is the signed card callers get', async () => {
    const { card } = await t.core.invoke('expose.card', { capsuleId: 'writer' });
    expect(card?.securitySchemes).toHaveProperty('bearer');
    const list = await t.core.invoke('gateway.status', {});
    const jwks = await (await fetch(`${list.url}/.well-known/jwks.json`)).json();
    expect(await verifyCardSignature(card!, jwks as any)).toMatchObject({ ok: true });
  });

  it('rotate and disable take effect at once', async () => {
    const first = await t.core.invoke('expose.rotate', { capsuleId: 'writer' });
    const second = await t.core.invoke('expose.rotate', { capsuleId: 'writer' });
    expect((await send(second.exposure.url, first.token)).status).toBe(401);
    expect((await send(second.exposure.url, second.token)).status).toBe(200);
    await t.core.invoke('expose.disable', { capsuleId: 'writer' });
    expect((await send(second.exposure.url, second.token)).status).toBe(401);
    await expect(t.core.invoke('expose.enable', { capsuleId: 'nope' })).rejects.toThrow();
  });

  it('configure: a non-loopback host is flagged for the warning, and the setting persists', async () => {
    const v = await t.core.invoke('gateway.configure', { host: '0.0.0.0', port: 0 });
    expect(v.loopback).toBe(false);
    const back = await t.core.invoke('gateway.configure', {
      host: '127.0.0.1',
      publicOrigin: 'https://agents.example.com/ignored-path',
    });
    expect(back).toMatchObject({ loopback: true, publicOrigin: 'https://agents.example.com' });
    const settings = JSON.parse(readFileSync(join(t.home, 'data', 'gateway', 'settings.json'), 'utf8'));
    expect(settings.publicOrigin).toBe('https://agents.example.com');
  });
});
