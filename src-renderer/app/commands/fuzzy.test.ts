import { describe, expect, it } from 'vitest';
import { fuzzyFilter, fuzzyMatch } from './fuzzy';

const names = ['coordinator', 'researcher', 'writer', 'worker-2', 'research-writer', 'Launch formation'];
const find = (q: string) => fuzzyFilter(q, names, (n) => n).map((r) => r.item);

describe('fuzzyMatch', () => {
  it('matches characters in order, case-insensitive, and refuses what is not there', () => {
    expect(fuzzyMatch('wrt', 'Writer')?.indices).toEqual([0, 1, 3]);
    expect(fuzzyMatch('WRI', 'writer')).not.toBeNull();
    expect(fuzzyMatch('rw', 'writer')).toBeNull();
    expect(fuzzyMatch('xyz', 'writer')).toBeNull();
    expect(fuzzyMatch('', 'anything')).toEqual({ score: 0, indices: [] });
  });

  it('finds the best of several starts', () => {
    // "wri" in "worker-writer" is the word "writer", not w…r…i spread across both words.
    expect(fuzzyMatch('wri', 'worker-writer')?.indices).toEqual([7, 8, 9]);
  });

  it('bounds the work: a very long query is cut, not looped over', () => {
    expect(fuzzyMatch('a'.repeat(10_000), 'a'.repeat(64))).not.toBeNull();
  });
});

describe('fuzzyFilter', () => {
  it('ranks an exact prefix, then word starts, then scattered matches', () => {
    expect(find('wri')[0]).toBe('writer');
    expect(find('res')[0]).toBe('researcher');
    expect(find('rw')).toEqual(['research-writer']);
    expect(find('wr')).toEqual(['writer', 'research-writer', 'worker-2']);
    expect(find('lf')).toEqual(['Launch formation']);
    expect(find('coord')).toEqual(['coordinator']);
  });

  it('keeps the given order for an empty query, up to the limit', () => {
    expect(fuzzyFilter('', names, (n) => n, 3).map((r) => r.item)).toEqual(['coordinator', 'researcher', 'writer']);
  });
});
