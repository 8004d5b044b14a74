import { describe, expect, it } from 'vitest';
import { shortId } from './ShortId';

describe('one short form for an id', () => {
  it('shows the end of a long id, after an ellipsis', () => {
    expect(shortId('tsk_01a24ed367d67001b3a0768bede09310')).toBe('…e09310');
    expect(shortId('ctx_01a24ed19a587000b1ecc9dbdbfceb4a')).toBe('…fceb4a');
  });

  it('keeps an id that short already whole', () => {
    expect(shortId('t1')).toBe('t1');
    expect(shortId('abcdefg')).toBe('abcdefg');
  });
});
