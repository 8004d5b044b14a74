// The head of a trace line: `{"ts":…,"event_type":…,"session_id":…` and, on a task's line,
// `,"task_id":…`. Its pieces repeat from line to line (the same millisecond, the same few event
// types, a task's lines one after the other), so each is kept encoded: the writer copies their
// bytes into its buffer instead of encoding the same text again for every line.

/** Text and its UTF-8 bytes. */
export interface Piece {
  text: string;
  bytes: Buffer;
}

export interface TypePiece extends Piece {
  /** The event type's JSON. */
  json: string;
}

export interface LineHeads {
  /** `{"ts":"…","event_type":` for a line of this time (isoNow()). */
  open(ts: string): Piece;
  /** `"type","session_id":"…"`: the event type's JSON and the session id after it. */
  type(type: string): TypePiece;
  /**
   * `,"task_id":"…"`; for an id that needs no escaping (the runtime's own), just the id: the
   * writer puts it between TASK_OPEN and a quote itself, and no piece is made per task.
   */
  task(taskId: string): Piece | string;
  /** `,"key":`: what goes before a last field's value. */
  key(key: string): Piece;
}

/** Event types kept at most: they are a few names, but a caller may make up many. */
const MAX_TYPES = 256;

let lastMs = 0;
let lastIso = '';

/** The current time as RFC 3339 ms; a burst within one millisecond formats it once (trace lines, task timestamps). */
export function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

const piece = (text: string): Piece => ({ text, bytes: Buffer.from(text) });

/** What goes before a plain task id (see LineHeads.task). */
export const TASK_OPEN = piece(',"task_id":"');

/** Printable ASCII without a quote or a backslash: its JSON is itself in quotes, its UTF-8 one byte a character. */
function isPlain(id: string): boolean {
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

/** The text a task head stands for. */
export const taskHeadText = (task: Piece | string): string =>
  typeof task === 'string' ? `${TASK_OPEN.text}${task}"` : task.text;

export function createLineHeads(sessionId: string): LineHeads {
  const sessionJson = JSON.stringify(sessionId);
  let openAt = '';
  let open = piece('');
  const types = new Map<string, TypePiece>();
  let taskId: string | undefined;
  let task: Piece | string = open;
  let lastKey: string | undefined;
  let key = open;
  return {
    open(ts) {
      if (ts !== openAt) {
        openAt = ts;
        // An ISO time needs no escaping: its JSON is itself in quotes.
        open = piece(`{"ts":"${ts}","event_type":`);
      }
      return open;
    },
    type(type) {
      let p = types.get(type);
      if (p === undefined) {
        if (types.size >= MAX_TYPES) types.clear();
        const json = JSON.stringify(type);
        p = { ...piece(`${json},"session_id":${sessionJson}`), json };
        types.set(type, p);
      }
      return p;
    },
    task(id) {
      // Lines of tasks in flight alternate: the last id's answer is kept, not a piece per id.
      if (id !== taskId) {
        taskId = id;
        task = isPlain(id) ? id : piece(`,"task_id":${JSON.stringify(id)}`);
      }
      return task;
    },
    key(k) {
      if (k !== lastKey) {
        lastKey = k;
        key = piece(`,${JSON.stringify(k)}:`);
      }
      return key;
    },
  };
}
