import { describe, expect, it } from 'vitest';
import { accessRow, exposureWarning, parsePort } from './exposeText';

describe('expose panel words', () => {
  it('names the caller by address and token id, never more', () => {
    const row = accessRow({
      time: '2026-01-01T10:00:00.000Z',
      remote: '10.0.0.2',
      tokenId: 'tok_ab',
      capsule: 'w',
      method: 'SendMessage',
      status: 200,
      outcome: 'error -32602',
      durationMs: 3,
    });
    expect(row.who).toBe('10.0.0.2 · tok_ab');
    expect(row.ok).toBe(false);
    expect(row.outcome).toBe('error -32602 (200, 3 ms)');
    expect(
      accessRow({
        time: 'x',
        remote: '::1',
        tokenId: null,
        capsule: null,
        method: 'POST',
        status: 401,
        outcome: 'unauthorized',
        durationMs: 0,
      }).who,
    ).toBe('::1 · no token');
    expect(
      accessRow({
        time: 'x',
        remote: '::1',
        tokenId: null,
        capsule: null,
        method: 'POST',
        status: 401,
        outcome: 'unauthorized: wrong token',
        durationMs: 0,
      }).who,
    ).toBe('::1 · wrong token');
    // Only a refusal for its token says what was wrong with it: a foreign Origin says nothing of one.
    expect(
      accessRow({
        time: 'x',
        remote: '::1',
        tokenId: null,
        capsule: null,
        method: 'POST',
        status: 403,
        outcome: 'forbidden_origin',
        durationMs: 0,
      }).who,
    ).toBe('::1');
  });
  it('warns with the host and parses ports', () => {
    expect(exposureWarning('0.0.0.0')).toContain('0.0.0.0');
    expect(parsePort('8080')).toBe(8080);
    expect(parsePort('70000')).toBeUndefined();
    expect(parsePort('abc')).toBeUndefined();
  });
});
