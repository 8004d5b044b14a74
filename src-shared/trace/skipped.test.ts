import { expect, it } from 'vitest';
import { skippedNote } from './skipped';

it('says how many trace lines were skipped and why, in one line', () => {
  expect(skippedNote({ bad: 2, deep: 0, long: 1, foreign: 0 })).toBe('3 lines skipped: 2 malformed, 1 too long');
  expect(skippedNote({ bad: 0, deep: 1, long: 0, foreign: 0 })).toBe('1 line skipped: 1 nested too deep');
  expect(skippedNote({ bad: 0, deep: 0, long: 0, foreign: 4 })).toBe('4 lines skipped: 4 from another session');
  expect(skippedNote({ bad: 0, deep: 0, long: 0, foreign: 0 })).toBe('');
});
