import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestStudio, type TestStudio } from '../../workspace/test-studio';
import { claimSingleInstance, folderPicker, quitOnOsShutdown, reportStartupFailure, wireQuit, type AppLike } from './lifecycle';

// The desktop's app behaviour against fake electron modules (no electron import here).

class FakeApp extends EventEmitter implements AppLike {
  locked = true;
  quits = 0;
  exited: number | undefined;
  requestSingleInstanceLock = () => this.locked;
  quit() {
    this.quits++;
    // Electron's quit: before-quit, then (unless held) will-quit, then the app is gone.
    const held = this.fire('before-quit') || this.fire('will-quit');
    if (!held) this.emit('quit-done');
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
  gone = () => new Promise<void>((ok) => this.once('quit-done', ok));
}

function fakeWindow(minimized = false) {
  return { isDestroyed: () => false, isMinimized: vi.fn(() => minimized), restore: vi.fn(), show: vi.fn(), focus: vi.fn() };
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

describe('quitting', () => {
  it('the last window closing ends every session through the core before the app is gone', async () => {
    studio = await createTestStudio();
    const core = studio.core;
    const launched = await core.invoke('capsule.launch', { id: 'writer' });
    const app = new FakeApp();
    const dispose = vi.spyOn(core, 'dispose');
    wireQuit({ app, shutdown: () => core.dispose() });
    const gone = app.gone();
    app.fire('window-all-closed');
    await gone;
    expect(dispose).toHaveBeenCalledTimes(1);
    const trace = readFileSync(`${studio.home}/records/${launched.sessionId}/trace.jsonl`, 'utf8');
    expect(trace).toContain('"event_type":"session_end"');
  });

  it('Cmd+Q, app.quit(), OS shutdown and SIGTERM all run the one shutdown, once', async () => {
    for (const trigger of ['cmd-q', 'app.quit', 'os-shutdown', 'sigterm'] as const) {
      const app = new FakeApp();
      const signals = new EventEmitter();
      const powerMonitor = new EventEmitter();
      let release!: () => void;
      const shutdown = vi.fn(() => new Promise<void>((ok) => (release = ok)));
      const wiring = wireQuit({ app, shutdown, signals: signals as unknown as NodeJS.Process });
      quitOnOsShutdown(app, powerMonitor as never);
      const gone = app.gone();
      let osHeld = false;
      if (trigger === 'cmd-q') expect(app.fire('before-quit')).toBe(true);
      if (trigger === 'app.quit') app.quit();
      if (trigger === 'os-shutdown') powerMonitor.emit('shutdown', { preventDefault: () => (osHeld = true) });
      if (trigger === 'sigterm') signals.emit('SIGTERM');
      // Quitting again while the shutdown runs does not start a second one.
      expect(app.fire('before-quit')).toBe(true);
      expect(shutdown).toHaveBeenCalledTimes(1);
      release();
      await wiring.finished;
      await gone;
      expect(trigger !== 'os-shutdown' || osHeld).toBe(true);
      // Once it is done, the quit goes through.
      expect(app.fire('before-quit')).toBe(false);
      expect(shutdown).toHaveBeenCalledTimes(1);
    }
  });

  it('a shutdown that hangs is bounded, and one that fails still quits; both are logged', async () => {
    for (const shutdown of [() => new Promise<void>(() => {}), () => Promise.reject(new Error('door would not close'))]) {
      const app = new FakeApp();
      const log: string[] = [];
      const wiring = wireQuit({ app, shutdown, boundMs: 50, log: (m) => log.push(m) });
      const gone = app.gone();
      app.quit();
      await wiring.finished;
      await gone;
      expect(log[0]).toMatch(/longer than 50 ms|door would not close/);
    }
  });
});

describe('start failure and folder picker', () => {
  it('a failed start shows a dialog with the message and the log file, then exits', () => {
    const app = new FakeApp();
    const dialog = { showErrorBox: vi.fn() };
    reportStartupFailure(app, dialog, new Error('EACCES: permission denied, mkdir /data'), '/logs/main.log');
    expect(dialog.showErrorBox).toHaveBeenCalledWith('Capsule Studio could not start', expect.stringMatching(/EACCES: permission denied[\s\S]*\/logs\/main\.log/));
    expect(app.exited).toBe(1);
  });

  it('asks for a folder (one that may be created for a new workspace) and says when the user cancels', async () => {
    const showOpenDialog = vi.fn(async (_options: { properties: string[] }) => ({ canceled: false, filePaths: ['/home/me/formation'] }));
    expect(await folderPicker({ showOpenDialog })('create')).toBe('/home/me/formation');
    expect(showOpenDialog.mock.calls[0]![0].properties).toEqual(['openDirectory', 'createDirectory', 'promptToCreate']);
    showOpenDialog.mockResolvedValueOnce({ canceled: true, filePaths: [] });
    expect(await folderPicker({ showOpenDialog })('open')).toBeUndefined();
  });
});
