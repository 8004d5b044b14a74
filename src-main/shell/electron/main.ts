import { existsSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  net,
  powerMonitor,
  protocol,
  safeStorage,
  session,
  shell,
} from 'electron';
import { createCore, type Core } from '../../core';
import { installLastResort } from '../../runtime';
import { recordsLayout } from '../../runtime/layout';
import { createSecretStore } from '../../secrets';
import { CSP } from '../csp';
import { createShutdown } from '../shutdown';
import { wireIpc, type IpcWiring } from './ipc';
import { keychainCipher } from './keychain';
import {
  claimSingleInstance,
  folderPicker,
  quitOnOsShutdown,
  reportStartupFailure,
  wireQuit,
  type PowerMonitorLike,
} from './lifecycle';
import { createMainLog } from './log';
import { shellPaths } from './paths';
import { APP_ORIGIN, APP_SCHEME, decideNavigation, decideWindowOpen, isExternalLink, isStudioPage } from './policy';

// The desktop shell: one window on the built renderer, served from the app:// scheme so every
// response carries our CSP. The page is sandboxed and isolated; it reaches the core only through
// the preload's contract bridge. Navigation away and new windows are refused; http(s) links open in
// the system browser.

const SCHEME = APP_SCHEME;
const ORIGIN = APP_ORIGIN;
const devServer = process.env.ELECTRON_RENDERER_URL;
const paths = shellPaths({ isPackaged: app.isPackaged, resourcesPath: process.resourcesPath, mainDir: __dirname });
const rendererDir = paths.rendererDir;
const log = createMainLog(app.getPath('logs'));

// An error nobody caught fails the task it belongs to; the window and the other sessions stay up.
installLastResort();

protocol.registerSchemesAsPrivileged([
  { scheme: SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

const isOurs = (url: string) => isStudioPage(url, devServer);

function workspaceArg(): string | undefined {
  const i = process.argv.indexOf('--workspace');
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function serveRenderer(): void {
  protocol.handle(SCHEME, async (request) => {
    const path = decodeURIComponent(new URL(request.url).pathname);
    const file = normalize(join(rendererDir, path === '/' ? 'index.html' : path));
    if (file !== rendererDir && !file.startsWith(rendererDir + sep)) return new Response('not found', { status: 404 });
    const res = await net.fetch(pathToFileURL(file).href);
    const headers = new Headers(res.headers);
    headers.set('content-security-policy', CSP);
    headers.set('x-content-type-options', 'nosniff');
    return new Response(res.body, { status: res.status, headers });
  });
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Capsule Studio',
    backgroundColor: '#16181d',
    icon: paths.icon,
    webPreferences: {
      preload: paths.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win.show());
  // A page that loads again (reload, a crash) is a new client: what the old one followed ends.
  win.webContents.on('did-start-navigation', (details) => {
    if (details.isMainFrame && !details.isSameDocument) ipc?.reset();
  });
  win.webContents.on('render-process-gone', () => ipc?.reset());
  win.on('closed', () => ipc?.reset());
  // Windows logoff or shutdown (it cannot be delayed there): start the clean shutdown at once.
  win.on('session-end', () => void shutdown.request('the session is ending'));
  void win.loadURL(devServer ?? `${ORIGIN}/index.html`);
  return win;
}

function lockDown(): void {
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, done) => done(false));
  app.on('web-contents-created', (_e, contents) => {
    contents.setWindowOpenHandler(({ url }) => {
      if (decideWindowOpen(url) === 'external') void shell.openExternal(url);
      return { action: 'deny' };
    });
    contents.on('will-navigate', (event, url) => {
      const decision = decideNavigation(url, devServer);
      if (decision === 'allow') return;
      event.preventDefault();
      if (decision === 'external') void shell.openExternal(url);
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
}

let core: Core | undefined;
let win: BrowserWindow | undefined;
let ipc: IpcWiring | undefined;

/**
 * better-sqlite3 built for Electron's ABI (npm run desktop:install puts it in
 * resources/native/electron/). The default build targets Node's ABI, which tests and the CLI use;
 * without the Electron build the Studio reads traces from the files.
 */
function electronSqliteBinding(): string | undefined {
  return existsSync(paths.electronSqlite) ? paths.electronSqlite : undefined;
}

const currentWindow = () => (win && !win.isDestroyed() ? win : undefined);

/**
 * The one clean shutdown of the desktop app, whatever ended it: the core's dispose ends every
 * session (StopSession, doors closed), stops harnesses and detached shells, closes the trace index.
 */
async function shutdownStudio(): Promise<void> {
  ipc?.dispose();
  ipc = undefined;
  await core?.dispose();
  core = undefined;
}

async function start(): Promise<void> {
  // Electron's types leave out the shutdown event's argument, which its docs (and we) use.
  quitOnOsShutdown(powerMonitor as unknown as PowerMonitorLike, shutdown);
  lockDown();
  serveRenderer();
  const layout = recordsLayout(process.env);
  core = createCore(
    {
      userDataDir: app.getPath('userData'),
      recordsRoot: layout.records,
      resourcesDir: paths.resourcesDir,
      workspace: workspaceArg(),
      sqliteBinding: electronSqliteBinding(),
    },
    {
      openExternal: (url) => (isExternalLink(url) ? shell.openExternal(url) : undefined),
      secrets: createSecretStore({
        file: join(app.getPath('userData'), 'secrets.json'),
        cipher: keychainCipher(safeStorage),
      }),
      runtimeTokens: createSecretStore({
        file: join(app.getPath('userData'), 'runtime-tokens.json'),
        cipher: keychainCipher(safeStorage),
      }),
      pickFolder: folderPicker({
        showOpenDialog: (options) =>
          currentWindow() ? dialog.showOpenDialog(currentWindow()!, options) : dialog.showOpenDialog(options),
      }),
    },
  );
  ipc = wireIpc({ core, ipcMain, webContents: () => currentWindow()?.webContents, isTrustedUrl: isOurs });
  await core.ready;
  win = createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) win = createWindow();
  });
}

// One shutdown path (shell/shutdown.ts) for Ctrl-C, SIGTERM, the last window closing, the app
// quitting (Cmd+Q, app.quit()) and the OS shutting down: every session ends cleanly before the app
// exits; a second signal forces it.
const shutdown = createShutdown({
  stop: shutdownStudio,
  exit: (code) => app.exit(code),
  log: (line) => {
    process.stderr.write(`studio: ${line}\n`);
    log.write(`shutdown: ${line}`);
  },
});

if (claimSingleInstance(app, currentWindow)) {
  shutdown.handleSignals();
  wireQuit(app, shutdown);
  app
    .whenReady()
    .then(start)
    .catch((err: unknown) => {
      log.write(`start failed: ${(err as Error).stack ?? String(err)}`);
      reportStartupFailure(app, dialog, err, log.file);
    });
}
