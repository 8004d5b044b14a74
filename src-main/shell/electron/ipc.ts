import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../../src-shared/contract';
import type { Core } from '../../core';

// Maps the contract onto Electron IPC: every command through one ipcMain.handle channel (input
// validated by core.handle, the answer always a reply envelope), every core event onto the
// window's webContents. Written against small interfaces so tests drive it with a fake ipcMain.

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

export function wireIpc(opts: IpcWiringOptions): { dispose(): void } {
  opts.ipcMain.handle(IPC_INVOKE_CHANNEL, async (event, cmd, input) => {
    const url = event.senderFrame?.url ?? '';
    if (!opts.isTrustedUrl(url)) return { ok: false, error: { code: 'invalid_input', message: 'Calls are accepted from the Studio window only.' } };
    return opts.core.handle(cmd, input);
  });
  const unsubscribe = opts.core.subscribe((event, payload) => {
    const wc = opts.webContents();
    if (wc && !wc.isDestroyed()) wc.send(IPC_EVENT_CHANNEL, event, payload);
  });
  return {
    dispose() {
      unsubscribe();
      opts.ipcMain.removeHandler(IPC_INVOKE_CHANNEL);
    },
  };
}
