import { describe, expect, it } from 'vitest';
import { rowLayout } from './rowLayout';

describe('row layout with one open row', () => {
  it('is the plain grid with no row open', () => {
    const l = rowLayout(100, 22, -1, 0);
    expect(l.total).toBe(2200);
    expect(l.offsetOf(10)).toBe(220);
    expect(l.rowAt(221)).toBe(10);
    expect(l.rowAt(-5)).toBe(0);
    expect(l.rowAt(99_999)).toBe(99);
  });

  it('moves the rows after the open one down by its extra height, and maps pixels back to rows', () => {
    const l = rowLayout(100, 22, 10, 300);
    expect(l.total).toBe(2200 + 278);
    expect(l.offsetOf(10)).toBe(220);
    expect(l.offsetOf(11)).toBe(220 + 300);
    expect(l.rowAt(219)).toBe(9);
    expect(l.rowAt(220)).toBe(10);
    expect(l.rowAt(519)).toBe(10);
    expect(l.rowAt(520)).toBe(11);
    expect(l.rowAt(l.offsetOf(57) + 3)).toBe(57);
    // Every row's own top maps back to it.
    for (let p = 0; p < 100; p++) expect(l.rowAt(l.offsetOf(p))).toBe(p);
  });

  it('ignores an open row outside the list and a height not measured yet', () => {
    expect(rowLayout(5, 22, 9, 300).total).toBe(110);
    expect(rowLayout(5, 22, 2, 0).total).toBe(110);
    expect(rowLayout(0, 22, -1, 0).rowAt(50)).toBe(0);
  });
});
