import { describe, expect, it } from 'vitest';
import { forEachSliced, sliceClock } from './slices';

// Work cut into slices gives what the uncut loop gives, in the same order, and lets the event
// loop run between slices.

describe('main-thread slices', () => {
  it('visits every item in order, as a plain loop does', async () => {
    const items = Array.from({ length: 5000 }, (_, i) => i * 3);
    const plain: [number, number][] = [];
    items.forEach((v, i) => plain.push([v, i]));
    const sliced: [number, number][] = [];
    await forEachSliced(items, (v, i) => sliced.push([v, i]), 0);
    expect(sliced).toEqual(plain);
  });

  it('lets what queued meanwhile run between slices', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('other work'));
    // A slice of 0 ms is over after every item: the other work runs before the second item.
    await forEachSliced(['a', 'b', 'c'], (x) => order.push(x), 0);
    expect(order).toEqual(['a', 'other work', 'b', 'c']);
  });

  it('says a slice is due only once its time has run', async () => {
    const clock = sliceClock(60_000);
    expect(clock.due()).toBe(false);
    const spent = sliceClock(0);
    expect(spent.due()).toBe(true);
    await spent.next();
  });
});
