import { expect, it, vi } from 'vitest';
import { cancelLongCommand, currentLongCommand, installEscToCancel, runLong } from './longCommand';

// Esc on a long command: the latest one waiting is aborted (its signal fires), the bar's command
// goes away, and the key stops there; with nothing waiting, Esc is left to others (a dialog).

const key = (k: string) => {
  const e = {
    key: k,
    prevented: false,
    stopped: false,
    preventDefault: () => (e.prevented = true),
    stopImmediatePropagation: () => (e.stopped = true),
  };
  return e;
};

it('Esc aborts the latest long command and stops the key; without one it passes the key on', async () => {
  let listener: ((e: ReturnType<typeof key>) => void) | undefined;
  const off = installEscToCancel({
    addEventListener: (_t, l) => (listener = l),
    removeEventListener: () => (listener = undefined),
  });
  const waits = (signal: AbortSignal) =>
    new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('canceled'))));
  const first = runLong('Publishing', waits);
  const second = runLong('Running test slow', waits);
  expect(currentLongCommand()?.label).toBe('Running test slow');

  const esc = key('Escape');
  listener!(esc);
  await expect(second).rejects.toThrow('canceled');
  expect(esc).toMatchObject({ prevented: true, stopped: true });
  expect(currentLongCommand()?.label).toBe('Publishing');

  const other = key('Enter');
  listener!(other);
  expect(other.stopped).toBe(false);
  expect(cancelLongCommand()).toBe(true);
  await expect(first).rejects.toThrow('canceled');
  expect(currentLongCommand()).toBeNull();

  const idle = key('Escape');
  listener!(idle);
  expect(idle).toMatchObject({ prevented: false, stopped: false });
  off();
  expect(listener).toBeUndefined();
});

it('a long command that ends on its own leaves the bar', async () => {
  await expect(runLong('Forking the task', async () => 'done')).resolves.toBe('done');
  expect(currentLongCommand()).toBeNull();
  expect(cancelLongCommand()).toBe(false);
});

it('with showAfterMs, a quick command never reaches the bar; a slow one does once it has waited that long', async () => {
  vi.useFakeTimers();
  try {
    let finish: (v: string) => void = () => undefined;
    const quick = runLong('Reading sessions', () => Promise.resolve('quick'), { showAfterMs: 400 });
    expect(currentLongCommand()).toBeNull();
    await expect(quick).resolves.toBe('quick');
    vi.advanceTimersByTime(1000);
    expect(currentLongCommand()).toBeNull();

    let aborted = false;
    const slow = runLong(
      'Reading sessions',
      (signal) => {
        signal.addEventListener('abort', () => (aborted = true));
        return new Promise<string>((ok) => (finish = ok));
      },
      { showAfterMs: 400 },
    );
    // Not shown yet: Esc is not taken from the page.
    expect(cancelLongCommand()).toBe(false);
    expect(aborted).toBe(false);
    vi.advanceTimersByTime(400);
    expect(currentLongCommand()?.label).toBe('Reading sessions');
    expect(cancelLongCommand()).toBe(true);
    expect(aborted).toBe(true);
    finish('late');
    await slow;
    expect(currentLongCommand()).toBeNull();
  } finally {
    vi.useRealTimers();
  }
});
