import { describe, expect, it } from 'vitest';
import { createStreamMask } from './stream-mask';

// The stream mask against every way a stream can split a secret: 1-character deltas, random
// delta sizes (a seeded generator, so a failure replays), secrets that overlap or contain each
// other. Whatever the split, the joined output is the masked text, and no frame holds a secret.

function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

function split(text: string, sizes: () => number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length;) {
    const n = Math.max(1, sizes());
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

function run(secrets: string[], deltas: string[]): string[] {
  const mask = createStreamMask(secrets)!;
  const frames = deltas.map((d) => mask.push(d));
  frames.push(mask.end());
  return frames.filter(Boolean);
}

const SECRET = 'sk-live-4f9a2c71e0';
const TEXT = `Your key is ${SECRET}, again: ${SECRET}${SECRET}; sk-live-4 is not it, nor sk-live-4f9a2c71e.`;
const MASKED = 'Your key is ***, again: ******; sk-live-4 is not it, nor sk-live-4f9a2c71e.';

describe('stream mask', () => {
  it('1-character deltas: the frames join to the masked text and none holds the secret', () => {
    const frames = run([SECRET], [...TEXT]);
    expect(frames.join('')).toBe(MASKED);
    expect(frames.some((f) => f.includes(SECRET))).toBe(false);
  });

  it('random delta sizes, 500 splits: never a secret in the joined frames', () => {
    const next = rng(7);
    for (let i = 0; i < 500; i++) {
      const frames = run(
        [SECRET, 'hunter22'],
        split(`${TEXT} hunter22 hunter2 `, () => Math.floor(next() * 12)),
      );
      expect(frames.join('')).toBe(`${MASKED} *** hunter2 `);
    }
  });

  it('overlapping secrets in random text and random splits: always what masking the whole text gives', () => {
    const next = rng(42);
    const secrets = ['cdef', 'efgh', 'fgcd', 'cdcdc'];
    for (let i = 0; i < 2000; i++) {
      const text = Array.from({ length: 40 }, () => 'cdefgh'[Math.floor(next() * 6)]).join('');
      const whole = run(secrets, [text]).join('');
      const frames = run(
        secrets,
        split(text, () => Math.floor(next() * 6)),
      );
      expect(frames.join('')).toBe(whole);
      for (const s of secrets) expect(whole).not.toContain(s);
    }
  });

  it('chained overlapping secrets are not held for ever, and still never show', () => {
    const mask = createStreamMask(['aaaa'])!;
    let out = '';
    for (let i = 0; i < 1000; i++) out += mask.push('a');
    // Masked text went out while the stream was still going: the hold stays within twice the secret.
    expect(out.length).toBeGreaterThan(0);
    const rest = mask.end();
    expect(rest.length).toBeLessThanOrEqual(8);
    expect(out + rest).not.toContain('aaaa');
    expect((out + rest).replace(/\*\*\*/g, '')).toMatch(/^a{0,3}$/);
  });

  it('holds back only what could still become a secret', () => {
    const mask = createStreamMask([SECRET])!;
    expect(mask.push('plain text ')).toBe('plain text ');
    expect(mask.push('then sk-li')).toBe('then ');
    expect(mask.push('ve-4f9a2c71e0 done')).toBe('*** done');
    expect(mask.push(' sk-')).toBe(' ');
    expect(mask.end()).toBe('sk-');
  });

  it('a secret inside another is masked whole; short values and no secrets mask nothing', () => {
    expect(run(['abcdefgh', 'cdef'], [...'xxabcdefghyy cdef']).join('')).toBe('xx***yy ***');
    // One secret ends where another could be starting: neither half leaks.
    for (const deltas of [[...'xcdefgh!'], [...'xcdefg'], ['xcd', 'efg', 'h!']]) {
      const joined = run(['cdef', 'efgh'], deltas).join('');
      expect(joined).not.toContain('cdef');
      expect(joined).not.toContain('efgh');
    }
    expect(createStreamMask(['abc'])).toBeUndefined();
    expect(createStreamMask([])).toBeUndefined();
  });
});
