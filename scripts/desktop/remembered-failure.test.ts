import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { attemptOnceADay, RETRY_AFTER_MS } from './remembered-failure';

describe('a failed download is tried again at most once a day', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  function setup() {
    const dir = mkdtempSync(join(tmpdir(), 'remembered-'));
    dirs.push(dir);
    let clock = 1_000_000;
    return {
      file: join(dir, 'sub', 'electron-download.failed.json'),
      stamp: { electron: '45.0.0', platform: 'linux', arch: 'x64' },
      now: () => clock,
      advance: (ms: number) => (clock += ms),
    };
  }
  const failing = () => vi.fn(async () => ({ ok: false as const, reason: 'no network: cannot resolve github.com' }));

  it('skips the attempt within a day of a failure, saying why and how long ago', async () => {
    const s = setup();
    const attempt = failing();
    expect(await attemptOnceADay(s, attempt)).toEqual({ ok: false, reason: 'no network: cannot resolve github.com' });
    s.advance(30 * 60_000);
    expect(await attemptOnceADay(s, attempt)).toEqual({
      ok: false,
      reason: 'no network: cannot resolve github.com; tried 30 min ago',
    });
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it('tries again after a day, when asked (desktop:install), and for another version', async () => {
    const s = setup();
    const attempt = failing();
    await attemptOnceADay(s, attempt);
    await attemptOnceADay({ ...s, retry: true }, attempt);
    expect(attempt).toHaveBeenCalledTimes(2);
    await attemptOnceADay({ ...s, stamp: { ...s.stamp, electron: '46.0.0' } }, attempt);
    expect(attempt).toHaveBeenCalledTimes(3);
    s.advance(RETRY_AFTER_MS);
    await attemptOnceADay({ ...s, stamp: { ...s.stamp, electron: '46.0.0' } }, attempt);
    expect(attempt).toHaveBeenCalledTimes(4);
  });

  it('forgets the failure once an attempt succeeds; an unreadable record means try', async () => {
    const s = setup();
    await attemptOnceADay(s, failing());
    expect(JSON.parse(readFileSync(s.file, 'utf8'))).toMatchObject({ electron: '45.0.0', reason: expect.any(String) });
    expect(await attemptOnceADay({ ...s, retry: true }, async () => ({ ok: true as const, binary: '/e' }))).toEqual({
      ok: true,
      binary: '/e',
    });
    expect(existsSync(s.file)).toBe(false);
  });
});
