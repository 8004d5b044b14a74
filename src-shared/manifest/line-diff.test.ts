import { describe, expect, it } from 'vitest';
import { lineDiff } from './line-diff';

describe('lineDiff', () => {
  it('keeps common lines and marks what went and came', () => {
    const d = lineDiff('name: a\nversion: 1\nrole: worker\n', 'name: a\nversion: 2\nrole: worker\nport: 1\n');
    expect(d.map((l) => `${l.kind[0]} ${l.text}`)).toEqual([
      's name: a',
      'r version: 1',
      'a version: 2',
      's role: worker',
      'a port: 1',
    ]);
  });
  it('handles empty sides', () => {
    expect(lineDiff('', 'a\nb')).toEqual([
      { kind: 'added', text: 'a' },
      { kind: 'added', text: 'b' },
    ]);
    expect(lineDiff('a', '')).toEqual([{ kind: 'removed', text: 'a' }]);
    expect(lineDiff('', '')).toEqual([]);
  });
  it('shows a middle too big for the table as replaced whole, quickly', () => {
    const a = Array.from({ length: 2000 }, (_, i) => `a${i}`).join('\n');
    const b = Array.from({ length: 2000 }, (_, i) => `b${i}`).join('\n');
    const d = lineDiff(a, b);
    expect(d.filter((l) => l.kind === 'removed')).toHaveLength(2000);
    expect(d.filter((l) => l.kind === 'added')).toHaveLength(2000);
  });
});
