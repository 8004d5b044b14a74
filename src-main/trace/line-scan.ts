// A cheap look at a trace line without JSON.parse. The trace writer starts every line the same
// way, `{"ts":"…","event_type":"…","session_id":"…"` and usually `,"task_id":"…"` next, so for
// the many events whose other fields the index ignores (tool calls, results, custom events) these
// few fields are read straight from the text. Anything off that shape returns null and the caller
// parses the line as JSON instead.

export interface LineHead {
  ts: string;
  type: string;
  /** The session the line claims (null: none in its head). */
  sessionId: string | null;
  taskId: string | null;
}

const TS = '{"ts":"';
const TYPE = '","event_type":"';
const SESSION = ',"session_id":"';
const TASK = ',"task_id":"';

/** A quoted value starting at `from` that has no escapes, or null. */
function plainValue(text: string, from: number): string | null {
  const end = text.indexOf('"', from);
  if (end < 0) return null;
  const v = text.slice(from, end);
  return v.includes('\\') ? null : v;
}

const TYPE_AT = TS.length + 24 + TYPE.length;

/** The event type of a line in the writer's shape (ms timestamp first), or null: the first look. */
export function scanLineType(text: string): string | null {
  if (!text.startsWith(TS) || !text.startsWith(TYPE, TYPE_AT - TYPE.length)) return null;
  return plainValue(text, TYPE_AT) || null;
}

/** The head fields of a line in the writer's shape, or null (then parse it). */
export function scanLineHead(text: string): LineHead | null {
  if (!text.startsWith(TS) || text.charCodeAt(text.length - 1) !== 125) return null;
  const ts = plainValue(text, TS.length);
  if (ts === null) return null;
  let at = TS.length + ts.length;
  if (!text.startsWith(TYPE, at)) return null;
  const type = plainValue(text, at + TYPE.length);
  if (!type) return null;
  at += TYPE.length + type.length + 1;
  let sessionId: string | null = null;
  if (text.startsWith(SESSION, at)) {
    sessionId = plainValue(text, at + SESSION.length);
    if (sessionId === null) return null;
    at += SESSION.length + sessionId.length + 1;
  } else if (text.includes('"session_id":')) {
    // A session id further down the line: only a parse finds it reliably.
    return null;
  }
  let taskId: string | null = null;
  if (text.startsWith(TASK, at)) {
    taskId = plainValue(text, at + TASK.length);
    if (taskId === null) return null;
  } else if (text.includes('"task_id":')) {
    // A task id further down the line: only a parse finds it reliably.
    return null;
  }
  return { ts, type, sessionId, taskId };
}

let lastSecond = '';
let lastSecondMs = 0;

/**
 * Epoch ms of an RFC 3339 timestamp, or null. The writer's `YYYY-MM-DDTHH:MM:SS.mmmZ` form reuses
 * the parse of the whole second it shares with the previous line (a burst shares its seconds).
 */
export function timestampMs(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  if (v.length === 24 && v.charCodeAt(19) === 46 && v.charCodeAt(23) === 90) {
    const a = v.charCodeAt(20) - 48;
    const b = v.charCodeAt(21) - 48;
    const c = v.charCodeAt(22) - 48;
    if (a >= 0 && a <= 9 && b >= 0 && b <= 9 && c >= 0 && c <= 9) {
      if (!(lastSecond.length === 19 && v.startsWith(lastSecond))) {
        const second = v.slice(0, 19);
        const ms = Date.parse(`${second}Z`);
        if (Number.isNaN(ms)) return null;
        lastSecond = second;
        lastSecondMs = ms;
      }
      return lastSecondMs + a * 100 + b * 10 + c;
    }
  }
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : t;
}
