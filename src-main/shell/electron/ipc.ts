import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../../src-shared/contract';
import type { Core } from '../../core';

// Maps the contract onto Electron IPC: every command through one ipcMain.handle channel (input
// validated by the core, the answer always a reply envelope), core events onto the window's
// webContents. The window's page is one client of the core (trace lines only for the sessions it
// follows); a page that loads again or goes away starts over following nothing (`reset`).
// Written against small interfaces so tests drive it with a fake ipcMain.

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
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
  opts.ipcMain.handle(IPC_INVOKE_CHANNEL, async (event, cmd, input) => {
    const url = event.senderFrame?.url ?? '';
    if (!opts.isTrustedUrl(url)) return { ok: false, error: { code: 'invalid_input', message: 'Calls are accepted from the Studio window only.' } };
    return client.handle(cmd, input);
  });
  return {
    reset() {
      client.close();
      client = connect();
    },
    dispose() {
      client.close();
      opts.ipcMain.removeHandler(IPC_INVOKE_CHANNEL);
    },
  };
}
