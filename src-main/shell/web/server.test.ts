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
  return { until, messages, send: (m: unknown) => ws.send(typeof m === 'string' ? m : JSON.stringify(m)) };
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
    await expect(
      open(shell.url, { host: `rebound.example:${shell.port}`, origin: `http://rebound.example:${shell.port}` }),
    ).rejects.toThrow('HTTP 403');

    const ws = await open(shell.url, { origin: shell.url });
    const c = conversation(ws);
    c.send({ type: 'invoke', id: 1, cmd: 'formation.get', input: {} });
    const reply = await c.until((m) => m.type === 'reply' && m.id === 1);
    expect(reply).toMatchObject({ ok: true, value: { capsules: expect.any(Array) } });

    c.send({ type: 'invoke', id: 2, cmd: 'capsule.add', input: { kind: 'robot', position: { x: 0, y: 0 } } });
    expect(await c.until((m) => m.type === 'reply' && m.id === 2)).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    c.send('not json');
    expect(await c.until((m) => m.type === 'reply' && m.id === -1)).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });

    c.send({ type: 'invoke', id: 3, cmd: 'capsule.move', input: { id: 'writer', position: { x: 1, y: 2 } } });
    expect(await c.until((m) => m.type === 'event' && m.event === 'formation.changed')).toMatchObject({
      payload: { dir: studio.workspace },
    });
    ws.close();
  });

  it('sends trace lines to the sockets that follow the session only, and forgets a socket that closed', async () => {
    studio = await createTestStudio();
    shell = await startWebShell({ core: studio.core, rendererDir: '/nonexistent', port: 0 });
    const [wsA, wsB] = [await open(shell.url, { origin: shell.url }), await open(shell.url, { origin: shell.url })];
    const [a, b] = [conversation(wsA), conversation(wsB)];
    expect(studio.core.connections()).toBe(2);
    const { sessionId } = await studio.core.invoke('capsule.launch', { id: 'writer' });
    a.send({ type: 'invoke', id: 1, cmd: 'trace.follow', input: { sessionId } });
    expect(await a.until((m) => m.type === 'reply' && m.id === 1)).toMatchObject({ ok: true, value: { following: 1 } });
    await studio.core.invoke('task.send', { capsuleId: 'writer', text: 'Write about the sea' });
    const isEnd = (m: WireMessage) =>
      m.type === 'event' &&
      m.event === 'trace.appended' &&
      (m.payload as { events: { event_type: string }[] }).events.some((e) => e.event_type === 'task_end');
    await a.until(isEnd);
    // B saw the task end (task.updated) but no trace line of it.
    await b.until(
      (m) =>
        m.type === 'event' &&
        m.event === 'task.updated' &&
        (m.payload as { task: { status: { state: string } } }).task.status.state === 'TASK_STATE_COMPLETED',
    );
    expect(b.messages.some((m) => m.type === 'event' && m.event === 'trace.appended')).toBe(false);

    wsA.close();
    await expect.poll(() => studio!.core.connections()).toBe(1);
    wsB.close();
    await expect.poll(() => studio!.core.connections()).toBe(0);
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
