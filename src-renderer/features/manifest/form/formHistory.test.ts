import { describe, expect, it } from 'vitest';
import { canRedo, canUndo, closeStep, recordEdit, redoEdit, undoEdit } from './formHistory';

describe('form undo', () => {
  it('typing in one field is one step; another field starts the next', () => {
    recordEdit('c1', 'model', 'm: a', 'm: ab');
    recordEdit('c1', 'model', 'm: ab', 'm: abc');
    recordEdit('c1', 'name', 'm: abc', 'm: abc\nn: x');
    expect(undoEdit('c1', 'm: abc\nn: x')).toBe('m: abc');
    expect(undoEdit('c1', 'm: abc')).toBe('m: a');
    expect(undoEdit('c1', 'm: a')).toBeNull();
    expect(redoEdit('c1', 'm: a')).toBe('m: abc');
    expect(canRedo('c1', 'm: abc')).toBe(true);
  });

  it('a closed step is not extended', () => {
    recordEdit('c2', 'model', '1', '2');
    closeStep('c2');
    recordEdit('c2', 'model', '2', '3');
    expect(undoEdit('c2', '3')).toBe('2');
  });

  it('a draft changed elsewhere drops the steps instead of undoing over that change', () => {
    recordEdit('c3', 'model', 'a', 'b');
    expect(canUndo('c3', 'b')).toBe(true);
    expect(canUndo('c3', 'b typed in YAML')).toBe(false);
    expect(undoEdit('c3', 'b typed in YAML')).toBeNull();
    expect(undoEdit('c3', 'b')).toBeNull();
  });

  it('keeps at most 100 steps', () => {
    for (let i = 0; i < 150; i++) recordEdit('c4', `k${i}`, String(i), String(i + 1));
    let n = 0;
    let draft = '150';
    for (let next = undoEdit('c4', draft); next !== null; next = undoEdit('c4', draft)) {
      draft = next;
      n++;
    }
    expect(n).toBe(100);
  });
});
