// How the desktop app behaves as an app, written against small slices of Electron's modules so
// tests drive it with fakes: one instance (a second launch focuses the first window; two would
// clash on pinned ports), one clean shutdown whatever ends the app, an error dialog instead of no
// window when the start fails, and the native folder picker behind the core's pickFolder port.

export interface AppLike {
  requestSingleInstanceLock(): boolean;
  on(event: string, listener: (event: { preventDefault(): void }, ...args: unknown[]) => void): unknown;
  quit(): void;
  exit(code?: number): void;
}
export interface WindowLike {
  isDestroyed(): boolean;
  isMinimized(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
}
export interface PowerMonitorLike {
  on(event: 'shutdown', listener: (event: { preventDefault(): void }) => void): unknown;
}
export interface DialogLike {
  showErrorBox(title: string, content: string): void;
  /** Electron's dialog.showOpenDialog, bound to the Studio window by the caller. */
  showOpenDialog(options: { title: string; buttonLabel: string; properties: ('openDirectory' | 'createDirectory' | 'promptToCreate')[] }): Promise<{ canceled: boolean; filePaths: string[] }>;
}

/** False when another instance holds the lock (this one then quits); else focuses on a second launch. */
export function claimSingleInstance(app: AppLike, window: () => WindowLike | undefined): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', () => {
    const win = window();
    if (!win || win.isDestroyed()) return;
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  });
  return true;
}

/** How long the shutdown may take before the app exits anyway (a harness that ignores signals). */
export const SHUTDOWN_BOUND_MS = 15_000;

export interface QuitWiring {
  app: AppLike;
  /** The one clean shutdown: every session ends, harnesses and detached shells are stopped. */
  shutdown(): Promise<void>;
  /** Process signals (SIGINT/SIGTERM to the main process) quit the same way. */
  signals?: Pick<NodeJS.Process, 'once'>;
  log?(message: string): void;
  boundMs?: number;
}

/**
 * Every way out (last window closed, Cmd+Q, app.quit(), OS shutdown, SIGTERM) reaches before-quit
 * or will-quit; the first holds the quit, runs the shutdown once (bounded), then quits for real.
 */
export function wireQuit(w: QuitWiring): { readonly finished: Promise<void> } {
  let running: Promise<void> | undefined;
  let done = false;
  let finish: () => void;
  const finished = new Promise<void>((ok) => (finish = ok));
  const hold = (event: { preventDefault(): void }) => {
    if (done) return;
    event.preventDefault();
    if (running) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<void>((ok) => {
      timer = setTimeout(() => {
        w.log?.(`shutdown took longer than ${w.boundMs ?? SHUTDOWN_BOUND_MS} ms; quitting anyway`);
        ok();
      }, w.boundMs ?? SHUTDOWN_BOUND_MS);
    });
    let work: Promise<void>;
    try {
      work = w.shutdown();
    } catch (err) {
      work = Promise.reject(err);
    }
    work = work.catch((err: unknown) => w.log?.(`shutdown failed: ${(err as Error).message}`));
    running = Promise.race([work, bound]).then(() => {
      clearTimeout(timer);
      done = true;
      finish();
      w.app.quit();
    });
  };
  w.app.on('window-all-closed', () => w.app.quit());
  w.app.on('before-quit', hold);
  // app.exit() skips both; anything else that reaches will-quit unheld is held here.
  w.app.on('will-quit', hold);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) w.signals?.once(signal, () => w.app.quit());
  return { finished };
}

/** OS shutdown or logout (Linux, macOS): delay it while the sessions end. powerMonitor exists once the app is ready. */
export function quitOnOsShutdown(app: AppLike, powerMonitor: PowerMonitorLike): void {
  powerMonitor.on('shutdown', (event) => {
    event.preventDefault();
    app.quit();
  });
}

/** A start that failed: a dialog with the message and where the log is, then exit. */
export function reportStartupFailure(app: AppLike, dialog: Pick<DialogLike, 'showErrorBox'>, err: unknown, logFile: string): void {
  const message = err instanceof Error ? err.message : String(err);
  dialog.showErrorBox('Capsule Studio could not start', `${message}\n\nDetails are in the log: ${logFile}`);
  app.exit(1);
}

/** The pickFolder port: the system's folder dialog, over the Studio window. */
export function folderPicker(dialog: Pick<DialogLike, 'showOpenDialog'>) {
  return async (purpose: 'open' | 'create'): Promise<string | undefined> => {
    const options: Parameters<DialogLike['showOpenDialog']>[0] =
      purpose === 'open'
        ? { title: 'Open a workspace', buttonLabel: 'Open workspace', properties: ['openDirectory'] }
        : { title: 'Choose a folder for the new workspace', buttonLabel: 'Create workspace here', properties: ['openDirectory', 'createDirectory', 'promptToCreate'] };
    const result = await dialog.showOpenDialog(options);
    return result.canceled ? undefined : result.filePaths[0];
  };
}
