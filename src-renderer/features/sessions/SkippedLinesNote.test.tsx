import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
import { SkippedLinesNote } from './SkippedLinesNote';

// A past session read in the sessions browser says how many lines of its trace the index could not
// read, and why, in one line above its events (as the CLI's trace show does).

it('notes the skipped lines of a past trace', () => {
  const html = renderToStaticMarkup(<SkippedLinesNote skipped={{ bad: 2, deep: 0, long: 1, foreign: 0 }} />);
  expect(html).toBe('<p class="session-skipped muted" role="note">3 lines skipped: 2 malformed, 1 too long</p>');
});

it('says nothing when every line was read', () => {
  expect(renderToStaticMarkup(<SkippedLinesNote />)).toBe('');
  expect(renderToStaticMarkup(<SkippedLinesNote skipped={{ bad: 0, deep: 0, long: 0, foreign: 0 }} />)).toBe('');
});
