// What a reader takes from one line of trace.jsonl, for every reader (the index, replay, fork,
// rehearsals and tests from recordings, WatchSession, the Studio's live trace, trace ls/show).
// A trace file may be damaged or forged, so a line is untrusted input:
// - longer than MAX_TRACE_LINE_BYTES: skipped without ever being held whole (the readers stream
//   past its bytes), because parsing a line costs its readers about 25 times its size;
// - not a JSON object with an event_type: skipped;
// - nested deeper than MAX_TRACE_LINE_DEPTH: skipped, because JSON.parse takes any depth but
//   everything after it that walks the value (printing, masking, the Studio's views) runs out of
//   stack;
// - claiming another session than the file's (its first event's session_id): skipped, so a
//   forged line cannot rename the session or add tasks to it.
// Each reader counts what it skipped, by reason, and says so where it reports a torn last line.

/**
 * The longest line a reader takes. Above anything the runtime writes: a task's messages are at
 * most 4 Mi characters (up to 12 MiB of UTF-8), and its task_end line holds them once more.
 */
export const MAX_TRACE_LINE_BYTES = 16 * 1024 * 1024;

/** Objects and arrays one line may nest (the door takes params 64 deep; the line wraps them). */
export const MAX_TRACE_LINE_DEPTH = 256;

/** Why a line was skipped. */
export type SkipReason = 'bad' | 'deep' | 'long' | 'foreign';

/** Lines skipped, by reason. */
export type SkippedLines = Record<SkipReason, number>;

export const noSkippedLines = (): SkippedLines => ({ bad: 0, deep: 0, long: 0, foreign: 0 });

export const skippedTotal = (s: SkippedLines): number => s.bad + s.deep + s.long + s.foreign;

/** Skipped lines in words ("2 lines: 1 not JSON, 1 claiming another session"), or '' for none. */
export function describeSkipped(s: SkippedLines): string {
  const total = skippedTotal(s);
  if (!total) return '';
  const parts = [
    s.bad && `${s.bad} not a trace event`,
    s.deep && `${s.deep} nested deeper than ${MAX_TRACE_LINE_DEPTH} levels`,
    s.long && `${s.long} longer than ${MAX_TRACE_LINE_BYTES >> 20} MiB`,
    s.foreign && `${s.foreign} claiming another session`,
  ].filter(Boolean);
  return `${total} line${total === 1 ? '' : 's'} (${parts.join(', ')})`;
}

/** True when `value` nests objects and arrays deeper than `max` (itself is level 1). Iterative. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: { value: object; depth: number }[] = [{ value, depth: 1 }];
  while (stack.length) {
    const { value: v, depth } = stack.pop()!;
    if (depth > max) return true;
    const items = Array.isArray(v) ? v : Object.values(v);
    for (const item of items)
      if (item !== null && typeof item === 'object') stack.push({ value: item as object, depth: depth + 1 });
  }
  return false;
}

/**
 * True when the text cannot nest deeper than MAX_TRACE_LINE_DEPTH: it opens no more objects and
 * arrays than that in all (brackets inside strings count too, so this only ever says "safe").
 * Found with indexOf, so the index's unparsed lines pay almost nothing for it.
 */
export function shallowText(text: string): boolean {
  let opens = 0;
  for (const c of ['{', '[']) {
    for (let at = text.indexOf(c); at >= 0; at = text.indexOf(c, at + 1))
      if (++opens > MAX_TRACE_LINE_DEPTH) return false;
  }
  return true;
}

/** The line as a trace event, or why it is not one (a line over the byte limit never gets here). */
export function parseTraceLine(text: string): Record<string, unknown> | 'bad' | 'deep' {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return 'bad';
  }
  if (!v || typeof v !== 'object' || Array.isArray(v) || typeof (v as { event_type?: unknown }).event_type !== 'string')
    return 'bad';
  return !shallowText(text) && nestedDeeperThan(v, MAX_TRACE_LINE_DEPTH) ? 'deep' : (v as Record<string, unknown>);
}

/**
 * Tells a file's own lines from lines claiming another session. The file's session is `known`
 * when the caller knows it (a read from the middle of the file), else the session_id of the
 * first event it is shown. A line without a session_id claims none and is the file's.
 */
export function sessionGate(known?: string) {
  let session = known;
  return {
    get session(): string | undefined {
      return session;
    },
    /** False for a line whose session_id names another session. */
    own(sessionId: unknown): boolean {
      if (typeof sessionId !== 'string') return true;
      session ??= sessionId;
      return sessionId === session;
    },
  };
}

export type SessionGate = ReturnType<typeof sessionGate>;
