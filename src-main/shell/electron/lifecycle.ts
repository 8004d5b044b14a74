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
  showOpenDialog(options: {
    title: string;
    buttonLabel: string;
    properties: ('openDirectory' | 'createDirectory' | 'promptToCreate')[];
  }): Promise<{ canceled: boolean; filePaths: string[] }>;
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

/** The one shutdown path of the Studio (shell/shutdown.ts): what the app's quit events feed. */
export interface ShutdownLike {
  readonly state: 'running' | 'stopping' | 'done';
  request(why: string): Promise<void>;
}

/**
 * Every way out of the app reaches the one shutdown: the last window closing, Cmd+Q and app.quit()
 * (before-quit), anything else that reaches will-quit. Each is held until the shutdown is done (it
 * ends the process with app.exit, which emits neither event again). Signals are the shutdown's own.
 */
export function wireQuit(app: AppLike, shutdown: ShutdownLike): void {
  app.on('window-all-closed', () => void shutdown.request('the window closed'));
  const hold = (event: { preventDefault(): void }) => {
    if (shutdown.state === 'done') return;
    event.preventDefault();
    void shutdown.request('quitting');
  };
  app.on('before-quit', hold);
  app.on('will-quit', hold);
}

/** OS shutdown or logout (Linux, macOS): delay it while the sessions end. powerMonitor exists once the app is ready. */
export function quitOnOsShutdown(powerMonitor: PowerMonitorLike, shutdown: ShutdownLike): void {
  powerMonitor.on('shutdown', (event) => {
    event.preventDefault();
    void shutdown.request('the system is shutting down');
  });
}

/** A start that failed: a dialog with the message and where the log is, then exit. */
export function reportStartupFailure(
  app: AppLike,
  dialog: Pick<DialogLike, 'showErrorBox'>,
  err: unknown,
  logFile: string,
): void {
  const message = err instanceof Error ? err.message : String(err);
  dialog.showErrorBox('Capsule Studio could not start', `${message}\n\nDetails are in the log: ${logFile}`);
  app.exit(1);
}

/** The pickFolder port: the system's folder dialog, over the Studio window. */
export function folderPicker(dialog: Pick<DialogLike, 'showOpenDialog'>) {
  return async (purpose: 'open' | 'create' | 'export'): Promise<string | undefined> => {
    const options: Parameters<DialogLike['showOpenDialog']>[0] =
      purpose === 'open'
        ? { title: 'Open a workspace', buttonLabel: 'Open workspace', properties: ['openDirectory'] }
        : purpose === 'export'
          ? {
              title: 'Choose a folder for the Kubernetes manifests',
              buttonLabel: 'Export here',
              properties: ['openDirectory', 'createDirectory', 'promptToCreate'],
            }
          : {
              title: 'Choose a folder for the new workspace',
              buttonLabel: 'Create workspace here',
              properties: ['openDirectory', 'createDirectory', 'promptToCreate'],
            };
    const result = await dialog.showOpenDialog(options);
    return result.canceled ? undefined : result.filePaths[0];
  };
}
