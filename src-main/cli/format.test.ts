import { describe, expect, it } from 'vitest';
import { columns, formatDuration, parseSince, ruler } from './format';

describe('CLI formatting', () => {
  it('formats durations the way the Tasks table prints them', () => {
    expect(formatDuration(850)).toBe('850ms');
    expect(formatDuration(4100)).toBe('4.1s');
    expect(formatDuration(192_000)).toBe('3m 12s');
    expect(formatDuration(7_500_000)).toBe('2h 5m');
    expect(formatDuration(null)).toBe('-');
  });

  it('reads --since as a duration back from now or a date', () => {
    const now = Date.parse('2026-10-13T09:00:00Z');
    expect(parseSince('1h', now)).toBe(now - 3_600_000);
    expect(parseSince('30m', now)).toBe(now - 1_800_000);
    expect(parseSince('2026-10-13T08:00:00Z', now)).toBe(now - 3_600_000);
    expect(parseSince('yesterday-ish', now)).toBeNull();
  });

  it('draws rulers and aligned columns', () => {
    expect(ruler('Session')).toBe('── Session ──────────────────────────────────────');
    expect(
      columns([
        ['task 1', 'tsk_019ed33d', 'ok'],
        ['task 10', 'tsk_019ed33e', 'failed'],
      ]),
    ).toEqual(['task 1   tsk_019ed33d  ok', 'task 10  tsk_019ed33e  failed']);
  });
});
