import { skippedNote, type SkippedLines } from '../../../src-shared/trace';

/** Lines of a past trace the index could not read, in one line (the CLI's trace show says the same); nothing when none. */
export function SkippedLinesNote({ skipped }: { skipped?: SkippedLines }) {
  const note = skipped ? skippedNote(skipped) : '';
  return note ? (
    <p className="session-skipped muted" role="note">
      {note}
    </p>
  ) : null;
}
