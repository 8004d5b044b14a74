import { describe, expect, it } from 'vitest';
import { base64Bytes, costUsd, formatBytes, formatMs, formatUsd } from './figures';
import { clipText, formatJson } from '../../ui/json';

describe('cost', () => {
  it('prices input and output tokens apart, per million', () => {
    const price = { inPerMTok: 3, outPerMTok: 15 };
    expect(costUsd(price, 1_000_000, 0)).toBe(3);
    expect(costUsd(price, 2000, 1000)).toBeCloseTo(0.006 + 0.015, 10);
    expect(costUsd(price, 0, 0)).toBe(0);
  });
  it('has no cost without a price (never a made-up zero)', () => {
    expect(costUsd(null, 1000, 1000)).toBeNull();
  });
  it('words small and large amounts readably', () => {
    expect(formatUsd(0)).toBe('$0');
    expect(formatUsd(0.00002)).toBe('< $0.0001');
    expect(formatUsd(0.021)).toBe('$0.0210');
    expect(formatUsd(12.345)).toBe('$12.35');
  });
});

describe('times and sizes', () => {
  it('words durations', () => {
    expect(formatMs(850)).toBe('850 ms');
    expect(formatMs(1234)).toBe('1.23 s');
    expect(formatMs(12_340)).toBe('12.3 s');
    expect(formatMs(125_000)).toBe('2 min 5 s');
  });
  it('counts the bytes of base64 text and words them', () => {
    expect(base64Bytes(btoa('hello'))).toBe(5);
    expect(base64Bytes(btoa('hell'))).toBe(4);
    expect(base64Bytes(btoa('hel'))).toBe(3);
    expect(base64Bytes('')).toBe(0);
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
  });
});

describe('JSON formatting', () => {
  it('indents by two spaces', () => {
    expect(formatJson({ a: [1, { b: 'x' }] })).toBe('{\n  "a": [\n    1,\n    {\n      "b": "x"\n    }\n  ]\n}');
  });
  it('never throws on what JSON cannot hold', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(formatJson(cyclic)).toContain('"self": "[cycle]"');
    expect(formatJson({ n: 10n })).toContain('"n": "10"');
    expect(formatJson(undefined)).toBe('undefined');
    expect(formatJson(() => 1)).toBe('"[function]"');
  });
  it('shows an object met twice (not a cycle) both times', () => {
    const shared = { x: 1 };
    expect(formatJson([shared, shared])).toBe(formatJson([{ x: 1 }, { x: 1 }]));
  });
  it('cuts long text for display and says so', () => {
    expect(clipText('abcdef', 4)).toEqual({ shown: 'abcd', cut: true });
    expect(clipText('abc', 4)).toEqual({ shown: 'abc', cut: false });
  });
});
