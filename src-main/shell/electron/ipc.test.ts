import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IPC_CANCEL_CHANNEL, IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../../src-shared/contract';
import { createTestStudio, type TestStudio } from '../../workspace/test-studio';
import { wireIpc, type IpcInvokeEventLike, type IpcMainLike } from './ipc';

// The Electron wiring against a fake ipcMain and webContents: no electron import anywhere here.

function fakeIpcMain() {
  const handlers = new Map<string, (event: IpcInvokeEventLike, ...args: unknown[]) => unknown>();
  const on = new Map<string, (event: IpcInvokeEventLike, ...args: unknown[]) => void>();
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    },
    removeHandler: (channel) => handlers.delete(channel),
    on: (channel, listener) => on.set(channel, listener),
    removeListener: (channel) => on.delete(channel),
  };
  const invoke = (url: string, ...args: unknown[]) =>
    handlers.get(IPC_INVOKE_CHANNEL)!({ senderFrame: { url } }, ...args);
  const cancel = (url: string, callId: unknown) => on.get(IPC_CANCEL_CHANNEL)?.({ senderFrame: { url } }, callId);
  return { ipcMain, handlers, invoke, cancel };
}

const SLOW_TEST =
  'entry: coordinator\nscripts:\n  coordinator:\n    delay_ms: 30000\n    replies:\n      - turns:\n          - text: late\ntasks:\n  - text: take your time\n';

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

describe('IPC wiring', () => {
  it('maps commands onto one handler with validated input, and events onto webContents', async () => {
    studio = await createTestStudio();
    const { ipcMain, handlers, invoke } = fakeIpcMain();
    const sent: unknown[][] = [];
    const wiring = wireIpc({
      core: studio.core,
      ipcMain,
      webContents: () => ({ send: (...a) => sent.push(a), isDestroyed: () => false }),
      isTrustedUrl: (u) => u.startsWith('app://studio/'),
    });

    const ok = (await invoke('app://studio/index.html', 'formation.get', {})) as {
      ok: boolean;
      value: { capsules: unknown[] };
    };
    expect(ok.ok).toBe(true);
    expect(ok.value.capsules).toHaveLength(3);
    expect(
      await invoke('app://studio/index.html', 'capsule.move', { id: 'writer', position: { x: 'far' } }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await invoke('app://studio/index.html', 'nope.nothing', {})).toMatchObject({
      ok: false,
      error: { code: 'unknown_command' },
    });
    // A frame that is not the Studio page (an injected iframe, a navigated page) gets nothing.
    expect(await invoke('https://evil.example/', 'formation.get', {})).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });

    await invoke('app://studio/index.html', 'capsule.move', { id: 'writer', position: { x: 5, y: 6 } });
    const event = sent.find((a) => a[0] === IPC_EVENT_CHANNEL && a[1] === 'formation.changed');
    // What changed: the one capsule's position, not the formation.
    expect(event?.[2]).toEqual({
      version: expect.any(Number),
      dir: studio.workspace,
      capsules: { updated: [{ id: 'writer', set: { position: { x: 5, y: 6 } } }] },
    });

    wiring.dispose();
    expect(handlers.size).toBe(0);
    const count = sent.length;
    await studio.core.invoke('capsule.move', { id: 'writer', position: { x: 7, y: 8 } });
    expect(sent.length).toBe(count);
  });

  it('is one client: its follows end when the page loads again (reset), and with the wiring', async () => {
    studio = await createTestStudio();
    const { ipcMain, invoke } = fakeIpcMain();
    const wiring = wireIpc({
      core: studio.core,
      ipcMain,
      webContents: () => ({ send: () => undefined, isDestroyed: () => false }),
      isTrustedUrl: () => true,
    });
    const sessionId = `ses_${'a'.repeat(32)}`;
    expect(await invoke('app://studio/index.html', 'trace.follow', { sessionId })).toMatchObject({
      ok: true,
      value: { following: 1 },
    });
    expect(
      await invoke('app://studio/index.html', 'trace.follow', { sessionId: `ses_${'b'.repeat(32)}` }),
    ).toMatchObject({ ok: true, value: { following: 2 } });
    wiring.reset();
    expect(studio.core.connections()).toBe(1);
    expect(await invoke('app://studio/index.html', 'trace.unfollow', { sessionId })).toMatchObject({
      ok: true,
      value: { following: 0 },
    });
    wiring.dispose();
    expect(studio.core.connections()).toBe(0);
  });

  it('drops events while the window is closed', async () => {
    studio = await createTestStudio();
    const { ipcMain } = fakeIpcMain();
    const sent: unknown[] = [];
    const wiring = wireIpc({
      core: studio.core,
      ipcMain,
      webContents: () => ({ send: (...a) => sent.push(a), isDestroyed: () => true }),
      isTrustedUrl: () => true,
    });
    await studio.core.invoke('capsule.move', { id: 'writer', position: { x: 1, y: 1 } });
    expect(sent).toEqual([]);
    wiring.dispose();
  });

  it('a call the page numbered stops when the page cancels it (Esc), as over the web shell', async () => {
    studio = await createTestStudio();
    const { ipcMain, invoke, cancel } = fakeIpcMain();
    const wiring = wireIpc({
      core: studio.core,
      ipcMain,
      webContents: () => undefined,
      isTrustedUrl: (u) => u.startsWith('app://studio/'),
    });
    mkdirSync(join(studio.workspace, 'tests'), { recursive: true });
    writeFileSync(join(studio.workspace, 'tests', 'slow.yaml'), SLOW_TEST);
    const started = Date.now();
    const run = invoke('app://studio/index.html', 'tests.run', { name: 'slow' }, 7);
    await new Promise((r) => setTimeout(r, 300));
    cancel('https://evil.example/', 7); // only the Studio's page cancels its calls
    cancel('app://studio/index.html', 7);
    expect(await run).toMatchObject({ ok: false, error: { code: 'canceled' } });
    expect(Date.now() - started).toBeLessThan(10_000);
    wiring.dispose();
  });

  it('a page that loads again (or goes away) stops every call it made, numbered or not', async () => {
    studio = await createTestStudio();
    const { ipcMain, invoke } = fakeIpcMain();
    const wiring = wireIpc({
      core: studio.core,
      ipcMain,
      webContents: () => undefined,
      isTrustedUrl: () => true,
    });
    await studio.core.invoke('workspace.open', { dir: studio.workspace });
    const file = join(studio.workspace, 'capsules', 'writer.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('delay_ms: 300', 'delay_ms: 30000'));
    await studio.core.invoke('capsule.launch', { id: 'writer' });
    mkdirSync(join(studio.workspace, 'tests'), { recursive: true });
    writeFileSync(join(studio.workspace, 'tests', 'slow.yaml'), SLOW_TEST);
    const run = invoke('app://studio/index.html', 'tests.run', { name: 'slow' }, 7);
    // A blocking send the page did not number: nothing could cancel it but the page going away.
    const send = invoke('app://studio/index.html', 'task.send', { capsuleId: 'writer', text: 'take your time' });
    await new Promise((r) => setTimeout(r, 300));
    wiring.reset();
    expect(await run).toMatchObject({ ok: false, error: { code: 'canceled' } });
    expect(await send).toMatchObject({ ok: false, error: { code: 'canceled' } });
    wiring.dispose();
  });
});
