import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestStudio, type TestStudio } from '../../workspace/test-studio';
import { createShutdown } from '../shutdown';
import {
  claimSingleInstance,
  folderPicker,
  quitOnOsShutdown,
  reportStartupFailure,
  wireQuit,
  type AppLike,
} from './lifecycle';

// The desktop's app behaviour against fake electron modules (no electron import here).

class FakeApp extends EventEmitter implements AppLike {
  locked = true;
  quits = 0;
  exited: number | undefined;
  requestSingleInstanceLock = () => this.locked;
  quit() {
    this.quits++;
    // Electron's quit: before-quit, then (unless held) will-quit.
    if (!this.fire('before-quit')) this.fire('will-quit');
  }
  exit(code = 0) {
    this.exited = code;
  }
  /** Emits an Electron-style event; true when a listener held it (preventDefault). */
  fire(name: string, ...args: unknown[]): boolean {
    let prevented = false;
    this.emit(name, { preventDefault: () => (prevented = true) }, ...args);
    return prevented;
  }
}

function fakeWindow(minimized = false) {
  return {
    isDestroyed: () => false,
    isMinimized: vi.fn(() => minimized),
    restore: vi.fn(),
    show: vi.fn(),
    focus: vi.fn(),
  };
}

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

describe('one instance', () => {
  it('a second instance quits at once; the first focuses its window (restored if minimized)', () => {
    const second = new FakeApp();
    second.locked = false;
    expect(claimSingleInstance(second, () => undefined)).toBe(false);
    expect(second.quits).toBe(1);

    const first = new FakeApp();
    const win = fakeWindow(true);
    expect(claimSingleInstance(first, () => win)).toBe(true);
    first.fire('second-instance', ['electron', '.'], '/home');
    expect(win.restore).toHaveBeenCalled();
    expect(win.show).toHaveBeenCalled();
    expect(win.focus).toHaveBeenCalled();
  });
});

/** The Studio's one shutdown on a fake app: exit records its code and says the app is gone. */
function shutdownOn(app: FakeApp, stop: () => Promise<void>) {
  const exited = new Promise<number>((ok) => app.once('exited', ok));
  const shutdown = createShutdown({ stop, exit: (code) => (app.exit(code), app.emit('exited', code)), log: () => {} });
  wireQuit(app, shutdown);
  return { shutdown, exited };
}

describe('quitting', () => {
  it('the last window closing ends every session through the core before the app exits', async () => {
    studio = await createTestStudio();
    const core = studio.core;
    const launched = await core.invoke('capsule.launch', { id: 'writer' });
    const app = new FakeApp();
    const dispose = vi.spyOn(core, 'dispose');
    const { exited } = shutdownOn(app, () => core.dispose());
    app.fire('window-all-closed');
    expect(await exited).toBe(0);
    expect(dispose).toHaveBeenCalledTimes(1);
    const trace = readFileSync(`${studio.home}/records/${launched.sessionId}/trace.jsonl`, 'utf8');
    expect(trace).toContain('"event_type":"session_end"');
  });

  it('Cmd+Q, app.quit(), will-quit and OS shutdown are held until the one shutdown has run, once', async () => {
    for (const trigger of ['cmd-q', 'app.quit', 'will-quit', 'os-shutdown'] as const) {
      const app = new FakeApp();
      const powerMonitor = new EventEmitter();
      let release!: () => void;
      const stop = vi.fn(() => new Promise<void>((ok) => (release = ok)));
      const { shutdown, exited } = shutdownOn(app, stop);
      quitOnOsShutdown(powerMonitor as never, shutdown);
      let osHeld = false;
      if (trigger === 'cmd-q') expect(app.fire('before-quit')).toBe(true);
      if (trigger === 'app.quit') app.quit();
      if (trigger === 'will-quit') expect(app.fire('will-quit')).toBe(true);
      if (trigger === 'os-shutdown') powerMonitor.emit('shutdown', { preventDefault: () => (osHeld = true) });
      // Quitting again while the shutdown runs is the same request, still held.
      expect(app.fire('before-quit')).toBe(true);
      expect(stop).toHaveBeenCalledTimes(1);
      expect(app.exited).toBeUndefined();
      release();
      expect(await exited).toBe(0);
      expect(trigger !== 'os-shutdown' || osHeld).toBe(true);
      expect(app.fire('before-quit')).toBe(false);
      expect(stop).toHaveBeenCalledTimes(1);
    }
  });
});

describe('start failure and folder picker', () => {
  it('a failed start shows a dialog with the message and the log file, then exits', () => {
    const app = new FakeApp();
    const dialog = { showErrorBox: vi.fn() };
    reportStartupFailure(app, dialog, new Error('EACCES: permission denied, mkdir /data'), '/logs/main.log');
    expect(dialog.showErrorBox).toHaveBeenCalledWith(
      'Capsule Studio could not start',
      expect.stringMatching(/EACCES: permission denied[\s\S]*\/logs\/main\.log/),
    );
    expect(app.exited).toBe(1);
  });

  it('asks for a folder (one that may be created for a new workspace) and says when the user cancels', async () => {
    const showOpenDialog = vi.fn(async (_options: { properties: string[] }) => ({
      canceled: false,
      filePaths: ['/home/me/formation'],
    }));
    expect(await folderPicker({ showOpenDialog })('create')).toBe('/home/me/formation');
    expect(showOpenDialog.mock.calls[0]![0].properties).toEqual(['openDirectory', 'createDirectory', 'promptToCreate']);
    showOpenDialog.mockResolvedValueOnce({ canceled: true, filePaths: [] });
    expect(await folderPicker({ showOpenDialog })('open')).toBeUndefined();
    // Export for Kubernetes: a folder that may be created, named for what goes in it.
    const exportDialog = vi.fn(async (_options: { title: string; properties: string[] }) => ({
      canceled: false,
      filePaths: ['/home/me/k8s'],
    }));
    expect(await folderPicker({ showOpenDialog: exportDialog })('export')).toBe('/home/me/k8s');
    expect(exportDialog.mock.calls[0]![0]).toMatchObject({
      title: 'Choose a folder for the Kubernetes manifests',
      properties: ['openDirectory', 'createDirectory', 'promptToCreate'],
    });
  });
});
