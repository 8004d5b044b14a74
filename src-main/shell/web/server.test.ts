import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { WireMessage } from '../../../src-shared/contract';
import { createTestStudio, type TestStudio } from '../../workspace/test-studio';
import { startWebShell, type WebShell } from './server';

let studio: TestStudio | undefined;
let shell: WebShell | undefined;
afterEach(async () => {
  await shell?.dispose();
  await studio?.dispose();
  shell = studio = undefined;
});

const open = (url: string, headers: Record<string, string>) =>
  new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });

function conversation(ws: WebSocket) {
  const messages: WireMessage[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (d) => {
    messages.push(JSON.parse(String(d)));
    waiters.splice(0).forEach((w) => w());
  });
  const until = async (pred: (m: WireMessage) => boolean): Promise<WireMessage> => {
    for (;;) {
      const found = messages.find(pred);
      if (found) return found;
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  return { until, send: (m: unknown) => ws.send(typeof m === 'string' ? m : JSON.stringify(m)) };
}

describe('web shell', () => {
  it('serves the contract on one socket to its own origin and refuses others', async () => {
    studio = await createTestStudio();
    shell = await startWebShell({ core: studio.core, rendererDir: '/nonexistent', port: 0 });
    expect(shell.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(shell.app.server.address()).toMatchObject({ address: '127.0.0.1' });

    await expect(open(shell.url, { origin: 'http://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(open(shell.url, { origin: `http://127.0.0.1:${shell.port + 1}` })).rejects.toThrow('HTTP 403');
    // DNS rebinding: a foreign host name pointing at 127.0.0.1.
    await expect(open(shell.url, { host: `rebound.example:${shell.port}`, origin: `http://rebound.example:${shell.port}` })).rejects.toThrow('HTTP 403');

    const ws = await open(shell.url, { origin: shell.url });
    const c = conversation(ws);
    c.send({ type: 'invoke', id: 1, cmd: 'formation.get', input: {} });
    const reply = await c.until((m) => m.type === 'reply' && m.id === 1);
    expect(reply).toMatchObject({ ok: true, value: { capsules: expect.any(Array) } });

    c.send({ type: 'invoke', id: 2, cmd: 'capsule.add', input: { kind: 'robot', position: { x: 0, y: 0 } } });
    expect(await c.until((m) => m.type === 'reply' && m.id === 2)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    c.send('not json');
    expect(await c.until((m) => m.type === 'reply' && m.id === -1)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });

    c.send({ type: 'invoke', id: 3, cmd: 'capsule.move', input: { id: 'writer', position: { x: 1, y: 2 } } });
    expect(await c.until((m) => m.type === 'event' && m.event === 'formation.changed')).toMatchObject({ payload: { dir: studio.workspace } });
    ws.close();
  });

  it('says the UI is not built instead of serving nothing, with the CSP on every answer', async () => {
    studio = await createTestStudio();
    shell = await startWebShell({ core: studio.core, rendererDir: '/nonexistent', port: 0 });
    const res = await fetch(shell.url);
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('npm run build');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  });
});
