import { IPC_CANCEL_CHANNEL, IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../../src-shared/contract';
import type { Core } from '../../core';

// Maps the contract onto Electron IPC: every command through one ipcMain.handle channel (input
// validated by the core, the answer always a reply envelope; a call the page numbered can be
// canceled on the cancel channel, as the web shell's socket cancels), core events onto the window's
// webContents. The window's page is one client of the core (trace lines only for the sessions it
// follows); a page that loads again or goes away starts over following nothing (`reset`).
// Written against small interfaces so tests drive it with a fake ipcMain.

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
  on(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => void): unknown;
}
export interface IpcInvokeEventLike {
  senderFrame?: { url: string } | null;
  sender?: unknown;
}
export interface WebContentsLike {
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
}

export interface IpcWiringOptions {
  core: Core;
  ipcMain: IpcMainLike;
  /** The main window's contents (undefined while no window is open). */
  webContents: () => WebContentsLike | undefined;
  /** Whether a frame URL is the Studio's own page; calls from anything else are refused. */
  isTrustedUrl: (url: string) => boolean;
}

export interface IpcWiring {
  /** The window's page loaded again or closed: its follows end (the new page follows what it shows). */
  reset(): void;
  dispose(): void;
}

export function wireIpc(opts: IpcWiringOptions): IpcWiring {
  const connect = () =>
    opts.core.connect((event, payload) => {
      const wc = opts.webContents();
      if (wc && !wc.isDestroyed()) wc.send(IPC_EVENT_CHANNEL, event, payload);
    });
  let client = connect();
  // Every call in flight, so a page that goes away stops them all; those the page numbered (a
  // long command it may cancel with Esc) also by the page's call id.
  const inFlight = new Set<AbortController>();
  const running = new Map<number, AbortController>();
  const abortAll = () => {
    for (const a of inFlight) a.abort();
    inFlight.clear();
    running.clear();
  };
  opts.ipcMain.handle(IPC_INVOKE_CHANNEL, async (event, cmd, input, callId) => {
    const url = event.senderFrame?.url ?? '';
    if (!opts.isTrustedUrl(url))
      return {
        ok: false,
        error: { code: 'invalid_input', message: 'Calls are accepted from the Studio window only.' },
      };
    const numbered = typeof callId === 'number' && Number.isSafeInteger(callId) && !running.has(callId);
    const abort = new AbortController();
    inFlight.add(abort);
    if (numbered) running.set(callId, abort);
    try {
      return await client.handle(cmd, input, abort.signal);
    } finally {
      inFlight.delete(abort);
      if (numbered && running.get(callId) === abort) running.delete(callId);
    }
  });
  const onCancel = (event: IpcInvokeEventLike, callId: unknown) => {
    if (opts.isTrustedUrl(event.senderFrame?.url ?? '') && typeof callId === 'number') running.get(callId)?.abort();
  };
  opts.ipcMain.on(IPC_CANCEL_CHANNEL, onCancel);
  return {
    reset() {
      // The page that made these calls is gone: nobody waits for them any more.
      abortAll();
      client.close();
      client = connect();
    },
    dispose() {
      abortAll();
      client.close();
      opts.ipcMain.removeHandler(IPC_INVOKE_CHANNEL);
      opts.ipcMain.removeListener(IPC_CANCEL_CHANNEL, onCancel);
    },
  };
}
