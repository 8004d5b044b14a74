import { describe, expect, it } from 'vitest';
import { createShutdown, FORCED_EXIT_CODE } from './shutdown';

// The Studio's one shutdown path: the first signal ends everything cleanly, the second forces.

function harness(stop: () => Promise<void>, graceMs?: number) {
  const log: string[] = [];
  const exits: number[] = [];
  const shutdown = createShutdown({
    stop,
    exit: (c) => exits.push(c),
    log: (l) => log.push(l),
    running: () => 2,
    ...(graceMs ? { graceMs } : {}),
  });
  return { shutdown, log, exits };
}

describe('createShutdown', () => {
  it('ends everything once, then exits 0; asking again (window closed, then quit) is the same request', async () => {
    let stops = 0;
    const { shutdown, log, exits } = harness(async () => void stops++);
    const first = shutdown.request('the window closed');
    expect(shutdown.request('the app quits')).toBe(first);
    expect(shutdown.state).toBe('stopping');
    await first;
    expect(stops).toBe(1);
    expect(exits).toEqual([0]);
    expect(shutdown.state).toBe('done');
    expect(log[0]).toBe('the window closed: ending 2 sessions (press Ctrl-C again to force)');
  });

  it('a second signal during a slow stop forces the exit and says so', async () => {
    let release!: () => void;
    const { shutdown, log, exits } = harness(() => new Promise<void>((r) => (release = r)));
    shutdown.signal('SIGINT');
    expect(exits).toEqual([]);
    shutdown.signal('SIGINT');
    expect(exits).toEqual([FORCED_EXIT_CODE]);
    expect(log.at(-1)).toBe('forced (SIGINT again): quitting now; 2 sessions did not end cleanly');
    release();
    await new Promise((r) => setTimeout(r, 0));
    expect(exits).toEqual([FORCED_EXIT_CODE]);
  });

  it('a stop that outlasts its bound is forced', async () => {
    const { shutdown, log, exits } = harness(() => new Promise<void>(() => undefined), 20);
    shutdown.signal('SIGTERM');
    await new Promise((r) => setTimeout(r, 80));
    expect(exits).toEqual([FORCED_EXIT_CODE]);
    expect(log.at(-1)).toMatch(/^forced \(still stopping after 0 s\)/);
  });

  it('a failing stop is reported and still exits', async () => {
    const { shutdown, log, exits } = harness(async () => {
      throw new Error('disk full');
    });
    await shutdown.request('SIGTERM');
    expect(log).toContain('while stopping: disk full');
    expect(exits).toEqual([0]);
  });
});

describe('handleSignals', () => {
  it('the terminal closing (SIGHUP, maybe twice) ends everything cleanly; it is never a force', async () => {
    const { EventEmitter } = await import('node:events');
    const proc = new EventEmitter();
    let release!: () => void;
    const { shutdown, log, exits } = harness(() => new Promise<void>((r) => (release = r)));
    const off = shutdown.handleSignals(proc as unknown as NodeJS.Process);
    proc.emit('SIGHUP');
    proc.emit('SIGHUP'); // the shell hangs up its jobs, then the kernel the foreground group
    expect(shutdown.state).toBe('stopping');
    expect(log).toEqual(['SIGHUP (the terminal closed): ending 2 sessions (press Ctrl-C again to force)']);
    release();
    await new Promise((r) => setTimeout(r, 0));
    expect(exits).toEqual([0]);
    off();
    expect(proc.listenerCount('SIGHUP')).toBe(0);
  });
});
