/** Lines of a trace.jsonl a reader left out, by why (the core's reader and index count them). */
export interface SkippedLines {
  /** Not a trace event (not JSON, or not an event). */
  bad: number;
  /** Nested too deep to read safely. */
  deep: number;
  /** Too long to read. */
  long: number;
  /** Claiming another session. */
  foreign: number;
}

/** One line for a reader of a trace: "3 lines skipped: 2 malformed, 1 too long"; '' when none was. */
export function skippedNote(s: SkippedLines): string {
  const total = s.bad + s.deep + s.long + s.foreign;
  if (total <= 0) return '';
  const parts = [
    s.bad > 0 && `${s.bad} malformed`,
    s.long > 0 && `${s.long} too long`,
    s.deep > 0 && `${s.deep} nested too deep`,
    s.foreign > 0 && `${s.foreign} from another session`,
  ].filter(Boolean);
  return `${total} ${total === 1 ? 'line' : 'lines'} skipped: ${parts.join(', ')}`;
}
