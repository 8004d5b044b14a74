import { describe, expect, it } from 'vitest';
import { RenewingMap } from './renewing-map';

describe('RenewingMap', () => {
  it('answers like a Map through many renewals: entries, insertion order, size', () => {
    const m = new RenewingMap<string, number>();
    const ref = new Map<string, number>();
    for (let i = 0; i < 5000; i++) {
      m.set(`k${i}`, i);
      ref.set(`k${i}`, i);
      // A ring of the newest 40, and now and then an entry replaced in place.
      if (i >= 40) {
        expect(m.delete(`k${i - 40}`)).toBe(true);
        ref.delete(`k${i - 40}`);
      }
      if (i % 7 === 0) {
        m.set(`k${i - 3}`, -i);
        ref.set(`k${i - 3}`, -i);
      }
    }
    expect(m.delete('k0')).toBe(false);
    expect(m.size).toBe(ref.size);
    expect([...m.keys()]).toEqual([...ref.keys()]);
    expect([...m.values()]).toEqual([...ref.values()]);
    expect([...m]).toEqual([...ref]);
    expect(m.get('k4999')).toBe(4999);
    expect(m.has('k10')).toBe(false);
  });

  it('moves its entries to a fresh Map once many were deleted, and only then', () => {
    const m = new RenewingMap<number, object>();
    const inner = () => (m as unknown as { map: Map<number, object> }).map;
    for (let i = 0; i < 10; i++) m.set(i, { i });
    const first = inner();
    for (let i = 10; i < 200; i++) {
      m.set(i, { i });
      m.delete(i - 10);
    }
    expect(inner()).toBe(first);
    for (let i = 200; i < 400; i++) {
      m.set(i, { i });
      m.delete(i - 10);
    }
    expect(inner()).not.toBe(first);
    expect([...m.keys()]).toEqual(Array.from({ length: 10 }, (_, k) => 390 + k));
  });
});
