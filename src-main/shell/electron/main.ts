import { existsSync } from 'node:fs';
import { join, normalize, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, BrowserWindow, ipcMain, net, protocol, session, shell } from 'electron';
import { createCore, type Core } from '../../core';
import { installLastResort } from '../../runtime';
import { recordsLayout } from '../../runtime/layout';
import { CSP } from '../csp';
import { createShutdown } from '../shutdown';
import { wireIpc } from './ipc';
import { APP_ORIGIN, APP_SCHEME, decideNavigation, decideWindowOpen, isExternalLink, isStudioPage } from './policy';

// The desktop shell: one window on the built renderer, served from the app:// scheme so every
// response carries our CSP. The page is sandboxed and isolated; it reaches the core only through
// the preload's contract bridge. Navigation away and new windows are refused; http(s) links open in
// the system browser.

const SCHEME = APP_SCHEME;
const ORIGIN = APP_ORIGIN;
const devServer = process.env.ELECTRON_RENDERER_URL;
const rendererDir = resolve(__dirname, '../renderer');
const resourcesDir = app.isPackaged ? join(process.resourcesPath, 'resources') : resolve(__dirname, '../../resources');

// An error nobody caught fails the task it belongs to; the window and the other sessions stay up.
installLastResort();

protocol.registerSchemesAsPrivileged([{ scheme: SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

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
    icon: join(resourcesDir, 'icon.png'),
    webPreferences: {
      preload: join(__dirname, '../preload/index.js'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win.show());
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

/**
 * better-sqlite3 built for Electron's ABI (`npx @electron/rebuild -o better-sqlite3`, copied to
 * resources/native/electron/better_sqlite3.node). The default build targets Node's ABI, which
 * tests and the CLI use; without the Electron build the Studio reads traces from the files.
 */
function electronSqliteBinding(): string | undefined {
  const file = join(resourcesDir, 'native', 'electron', 'better_sqlite3.node');
  return existsSync(file) ? file : undefined;
}

app.whenReady().then(async () => {
  lockDown();
  serveRenderer();
  const layout = recordsLayout(process.env);
  core = createCore(
    { userDataDir: app.getPath('userData'), recordsRoot: layout.records, resourcesDir, workspace: workspaceArg(), sqliteBinding: electronSqliteBinding() },
    { openExternal: (url) => (isExternalLink(url) ? shell.openExternal(url) : undefined) },
  );
  wireIpc({ core, ipcMain, webContents: () => (win && !win.isDestroyed() ? win.webContents : undefined), isTrustedUrl: isOurs });
  await core.ready;
  win = createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) win = createWindow();
  });
});

// One shutdown path for Ctrl-C, SIGTERM, the last window closing and the app quitting (Cmd+Q
// included): every session ends cleanly before the app exits; a second signal forces it.
const shutdown = createShutdown({
  stop: async () => {
    await core?.dispose();
  },
  exit: (code) => app.exit(code),
  log: (line) => process.stderr.write(`studio: ${line}\n`),
});
shutdown.handleSignals();

app.on('window-all-closed', () => void shutdown.request('the window closed'));
app.on('before-quit', (event) => {
  // app.exit (the shutdown's end) quits without another before-quit.
  if (shutdown.state === 'done') return;
  event.preventDefault();
  void shutdown.request('quitting');
});
