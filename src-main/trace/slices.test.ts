import { describe, expect, it } from 'vitest';
import { sliceClock } from './slices';

// A fold cut into slices asks the clock whether its slice has run its time.

describe('main-thread slices', () => {
  it('says a slice is due only once its time has run', async () => {
    const clock = sliceClock(60_000);
    expect(clock.due()).toBe(false);
    const spent = sliceClock(0);
    expect(spent.due()).toBe(true);
    await spent.next();
  });

  it('lets what queued meanwhile run before the next slice', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('other work'));
    order.push('slice 1');
    await sliceClock(0).next();
    order.push('slice 2');
    expect(order).toEqual(['slice 1', 'other work', 'slice 2']);
  });
});
