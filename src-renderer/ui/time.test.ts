import { describe, expect, it } from 'vitest';
import { formatDateTime, formatTime } from './time';

// The moments are built from local parts, so the expectations hold in any time zone.
const afternoon = new Date(2026, 11, 7, 16, 5, 9, 42);

describe('one way to write a time', () => {
  it('writes the 24-hour local clock, never AM/PM', () => {
    expect(formatTime(afternoon)).toBe('16:05:09');
    expect(formatTime(afternoon.getTime())).toBe('16:05:09');
    expect(formatTime(afternoon.toISOString())).toBe('16:05:09');
  });

  it('adds milliseconds when asked, and the day for a date and time', () => {
    expect(formatTime(afternoon, { ms: true })).toBe('16:05:09.042');
    expect(formatDateTime(afternoon)).toBe('2026-12-07 16:05:09');
  });

  it('shows a value that is no time as it came', () => {
    expect(formatTime('soon')).toBe('soon');
    expect(formatDateTime('')).toBe('');
  });
});
