import { describe, expect, it } from 'vitest';
import { retryAfter } from './failure';

describe('retryAfter', () => {
  it('reads retry-after-ms first, then retry-after as seconds or as an HTTP date', () => {
    expect(retryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(retryAfter(new Headers({ 'retry-after': '2' }))).toBe(2000);
    const inThree = new Date(Date.now() + 3000).toUTCString();
    const ms = retryAfter(new Headers({ 'retry-after': inThree }))!;
    expect(ms).toBeGreaterThan(1000);
    expect(ms).toBeLessThanOrEqual(3000);
    expect(retryAfter(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfter(new Headers())).toBeUndefined();
  });
});
