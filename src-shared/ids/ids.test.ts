import { describe, expect, it } from 'vitest';
import { newSessionId, SESSION_ID_RE, timeOrderedHex } from './index';

describe('time-ordered ids', () => {
  it('are 32 lowercase hex characters with the ses_ prefix', () => {
    expect(newSessionId()).toMatch(SESSION_ID_RE);
  });
  it('sort by creation time, even within one millisecond', () => {
    const ids = Array.from({ length: 200 }, () => timeOrderedHex(1_700_000_000_000));
    expect([...ids].sort()).toEqual(ids);
    expect(timeOrderedHex(1_800_000_000_000) > ids[199]).toBe(true);
  });
});
