import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { browserCommands, openBrowser } from './open-browser';

const URL = 'http://127.0.0.1:5123';

describe('which browser npm start opens', () => {
  it('the BROWSER variable first (with %s, flags, or several tried in order), then the platform opener', () => {
    expect(browserCommands(URL, { BROWSER: 'firefox' }, 'linux')).toEqual([
      { command: 'firefox', args: [URL] },
      { command: 'xdg-open', args: [URL] },
    ]);
    expect(browserCommands(URL, { BROWSER: 'chromium --new-window %s:w3m' }, 'linux').slice(0, 2)).toEqual([
      { command: 'chromium', args: ['--new-window', URL] },
      { command: 'w3m', args: [URL] },
    ]);
  });

  it('the platform opener without BROWSER: xdg-open, open, start', () => {
    expect(browserCommands(URL, {}, 'linux')).toEqual([{ command: 'xdg-open', args: [URL] }]);
    expect(browserCommands(URL, { BROWSER: '  ' }, 'darwin')).toEqual([{ command: 'open', args: [URL] }]);
    expect(browserCommands(URL, {}, 'win32')).toEqual([{ command: 'cmd', args: ['/c', 'start', '""', URL] }]);
  });

  it('tries the next command when one does not start, and says what it tried when none did', async () => {
    const launched: string[] = [];
    const launch = async (c: { command: string }) => (launched.push(c.command), c.command === 'xdg-open');
    expect(await openBrowser(URL, { BROWSER: 'nope' }, launch, 'linux')).toEqual({
      opened: true,
      tried: ['nope', 'xdg-open'],
    });
    expect(await openBrowser(URL, {}, async () => false, 'linux')).toEqual({ opened: false, tried: ['xdg-open'] });
  });

  describe('really started', () => {
    let dir: string | undefined;
    afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

    it.skipIf(process.platform === 'win32')(
      'runs the BROWSER program with the address; a missing program is not a crash',
      async () => {
        dir = mkdtempSync(join(tmpdir(), 'browser-'));
        const seen = join(dir, 'seen.txt');
        const fake = join(dir, 'fake-browser');
        writeFileSync(fake, `#!/bin/sh\nprintf '%s' "$1" > '${seen}'\n`);
        chmodSync(fake, 0o755);
        expect(await openBrowser(URL, { BROWSER: fake })).toEqual({ opened: true, tried: [fake] });
        for (let i = 0; i < 50 && !existsSync(seen); i++) await new Promise((r) => setTimeout(r, 20));
        expect(readFileSync(seen, 'utf8')).toBe(URL);
        const missing = await openBrowser(URL, { BROWSER: join(dir, 'no-such-browser') }, undefined, 'freebsd');
        expect(missing.tried[0]).toBe(join(dir, 'no-such-browser'));
      },
    );
  });
});
