import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { announceWebShell } from './web-start';

function run(open: boolean, opened = true) {
  const stdout = new PassThrough();
  const printed: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const openBrowser = vi.fn(async () => (await gate, { opened, tried: ['xdg-open'] }));
  const done = announceWebShell({ stdout, open, env: {}, print: (l) => printed.push(l), openBrowser });
  return { stdout, printed, openBrowser, release, done };
}

describe('npm start in the web shell', () => {
  it('opens the browser once the Studio answers, and prints its address as the last line', async () => {
    const r = run(true);
    r.stdout.write('studio: example workspace copied\nstudio: http://127.0.0.1:40123\n');
    await vi.waitFor(() => expect(r.openBrowser).toHaveBeenCalledWith('http://127.0.0.1:40123', {}));
    // A line the server prints while the browser opens still comes before the address.
    r.stdout.write('studio: a late notice\n');
    await new Promise((res) => setImmediate(res));
    r.release();
    expect(await r.done).toBe('http://127.0.0.1:40123');
    expect(r.printed).toEqual([
      'studio: example workspace copied',
      'studio: a late notice',
      'Opening the Studio in your browser…',
      'Capsule Studio: http://127.0.0.1:40123',
    ]);
  });

  it('--no-open opens nothing and still ends with the address', async () => {
    const r = run(false);
    r.stdout.end('studio: http://127.0.0.1:40124\n');
    expect(await r.done).toBe('http://127.0.0.1:40124');
    expect(r.openBrowser).not.toHaveBeenCalled();
    expect(r.printed.at(-1)).toBe('Capsule Studio: http://127.0.0.1:40124');
  });

  it('says how to choose a browser when none opened; a server that never answers resolves nothing', async () => {
    const r = run(true, false);
    r.release();
    r.stdout.write('studio: http://127.0.0.1:40125\n');
    await r.done;
    expect(r.printed.slice(-2)).toEqual([
      'Could not open a browser (tried xdg-open; set BROWSER to choose one). Open this address:',
      'Capsule Studio: http://127.0.0.1:40125',
    ]);
    const silent = run(true);
    silent.stdout.end('studio: port 1 is already in use\n');
    expect(await silent.done).toBeUndefined();
    expect(silent.printed).toEqual(['studio: port 1 is already in use']);
  });
});
