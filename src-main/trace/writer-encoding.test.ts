import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTraceWriter, maskSecrets, type SerializedField } from './writer';

// The writer builds a common line from pieces (its head, kept encoded, and the event's own JSON)
// instead of serializing a copy of the event with the head's fields. The bytes must be the ones
// that copy gives: a corpus of events is written and compared, byte for byte, with the line
// built the plain way (`plainLine` below), in sessions with and without secrets, with and
// without listeners.

type Event = { event_type: string } & Record<string, unknown>;

interface Entry {
  /** A fresh event each time (the writer may set its task id). */
  event: () => Event;
  /** Written with appendTask(taskId, …) when set, with append(…) otherwise. */
  taskId?: string;
  last?: SerializedField;
}

const SESSION = 'ses_“x”';

/** The line the plain way: a copy of the event after the head's fields, serialized whole, then masked. */
function plainLine(e: Entry, ts: string, masks: readonly string[]): { text: string; line: Record<string, unknown> } {
  const event = e.event();
  if (e.taskId !== undefined) event.task_id = e.taskId;
  const head =
    event.task_id === undefined
      ? { ts, event_type: event.event_type, session_id: SESSION }
      : { ts, event_type: event.event_type, session_id: SESSION, task_id: event.task_id };
  const line: Record<string, unknown> = Object.assign(head, event);
  const json = JSON.stringify(line);
  if (e.last) line[e.last.key] = e.last.value;
  const whole = e.last ? `${json.slice(0, -1)},${JSON.stringify(e.last.key)}:${e.last.json}}` : json;
  if (!masks.some((m) => whole.includes(m))) return { text: whole, line };
  const masked = maskSecrets(whole, masks);
  return { text: masked, line: Object.assign(line, JSON.parse(masked)) };
}

/** One function for every copy of an event, so listeners' lines compare equal. */
const toJSON = () => ({ replaced: true });
const typeFirst = () => ({ event_type: 'to_json', replaced: true });

const field = (key: string, value: unknown): SerializedField => ({ key, value, json: JSON.stringify(value) });

const SECRET = 'sk-live-123456';
const QUOTED = 'pa"ss“wörd';
/** A secret that spans the head's pieces: the line must be scanned whole. */
const ACROSS = 'y","session_id":"ses_“x”","task_id":"tsk_se';

function corpus(): Entry[] {
  const odd = 'ctl \u0000\u0001\u001f\n\t\r"\\/ \u2028\u2029 lone \ud800 and \udc00, pair 😀, “quotes”, é';
  const final = ['tsk_1', 'ctx_1', 'TASK_STATE_COMPLETED', '2026-12-07T01:43:51.719Z', 'done', odd, null];
  const entries: Entry[] = [
    { event: () => ({ event_type: 'session_start', capsule: 'c', pid: 1, url: 'http://127.0.0.1:1' }) },
    { event: () => ({ event_type: 'a2a_task_received', context_id: 'ctx_1', text: odd }), taskId: 'tsk_1' },
    { event: () => ({ event_type: 'task_start', context_id: 'ctx_1' }), taskId: 'tsk_1' },
    { event: () => ({ event_type: 'task_start' }), taskId: 'tsk_2' },
    {
      event: () => ({ event_type: 'inference', turn: 1, text: odd, tool_calls: [], nested: { a: [1, null, 'x'] } }),
      taskId: 'tsk_1',
    },
    {
      event: () => ({ event_type: 'task_end', state: 'TASK_STATE_COMPLETED', answer: odd }),
      taskId: 'tsk_1',
      last: field('final', final),
    },
    // A key of the event again as the last field, and another last key.
    { event: () => ({ event_type: 'task_end', final: 1 }), taskId: 'tsk_2', last: field('final', [2]) },
    { event: () => ({ event_type: 'x' }), taskId: 'tsk_2', last: field('fi"n“al', { a: odd }) },
    { event: () => ({ event_type: 'no_fields' }) },
    // Values JSON writes its own way.
    {
      event: () => ({ event_type: 'values', u: undefined, n: NaN, z: -0, inf: Infinity, t: true, d: new Date(0) }),
      taskId: 'tsk_3',
    },
    // Fields of the head in the event: theirs win, where the head has them.
    { event: () => ({ event_type: 'own', ts: 'mine', session_id: 'other', task_id: 'tsk_own' }) },
    { event: () => ({ event_type: 'own_ts', ts: 'mine' }), taskId: 'tsk_1' },
    { event: () => ({ event_type: 'own_session', session_id: 'other', text: 'd' }), taskId: 'tsk_1' },
    { event: () => ({ event_type: 'own_task', text: 'a', task_id: 'tsk_early' }), taskId: 'tsk_given' },
    { event: () => ({ event_type: 'own_task', text: 'b', task_id: 'tsk_early' }) },
    { event: () => ({ event_type: 'undefined_task', task_id: undefined, text: 'c' }) },
    // Events whose JSON does not start with their type.
    { event: () => ({ context_id: 'ctx_1', event_type: 'type_late' }), taskId: 'tsk_1' },
    { event: () => ({ event_type: 'numbers', '1': 'one', '0': 'zero' }), taskId: 'tsk_1' },
    { event: () => ({ event_type: 5 }) as unknown as Event },
    { event: () => ({ other_type: 'same', event_type: 'same' }), taskId: 'tsk_1' },
    { event: () => ({ event_type: 'to_json', toJSON }), taskId: 'tsk_1' },
    { event: () => ({ event_type: 'to_json', toJSON: typeFirst }), taskId: 'tsk_1' },
    // Types and ids that need escaping.
    { event: () => ({ event_type: 'ty"pe “é” \n' }), taskId: 'tsk_"q“\ud800' },
    { event: () => ({ event_type: 'x' }), taskId: 'tsk_\\b\u0001\u007f~ ' },
    // Secrets, raw and JSON-escaped, in any field, and one across the head's pieces.
    { event: () => ({ event_type: 'tool_call', arguments: { key: SECRET } }), taskId: 'tsk_1' },
    { event: () => ({ event_type: 'note', text: `say ${QUOTED}` }), taskId: 'tsk_1', last: field('final', [QUOTED]) },
    { event: () => ({ event_type: `type ${SECRET}` }), taskId: `tsk_${SECRET}` },
    { event: () => ({ event_type: 'x', text: 'no secret' }), taskId: 'tsk_secret' },
    { event: () => ({ event_type: 'x' }), last: field('final', { answer: `the key is ${SECRET}` }) },
  ];
  // Lines larger than the buffer (written on their own), and enough lines to fill it many times.
  entries.push({ event: () => ({ event_type: 'big', text: 'a'.repeat(70_000) }), taskId: 'tsk_4' });
  entries.push({ event: () => ({ event_type: 'big', text: '“'.repeat(25_000) }), taskId: 'tsk_4' });
  entries.push({ event: () => ({ event_type: 'big' }), taskId: 'tsk_4', last: field('final', ['é'.repeat(30_000)]) });
  for (let i = 0; i < 600; i++) {
    const text = `line ${i} ${'ü'.repeat(i % 300)} 🙂`;
    entries.push({ event: () => ({ event_type: i % 2 ? 'inference' : 'frame', text }), taskId: `tsk_${i % 7}` });
    if (i % 50 === 0)
      entries.push({ event: () => ({ event_type: 'task_end' }), taskId: `tsk_${i}`, last: field('final', [text]) });
  }
  return entries;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('trace line encoding', () => {
  for (const secrets of [[], [SECRET, QUOTED, ACROSS]])
    for (const listening of [false, true])
      it(`writes the bytes of the plain line (${secrets.length ? 'secrets' : 'no secrets'}, ${listening ? 'a' : 'no'} listener)`, () => {
        let now = Date.parse('2026-12-07T01:43:51.719Z');
        vi.spyOn(Date, 'now').mockImplementation(() => now);
        const path = join(mkdtempSync(join(tmpdir(), 'trace-encoding-')), 'trace.jsonl');
        const w = createTraceWriter(path, SESSION, secrets);
        const seen: unknown[] = [];
        if (listening) w.subscribe((e) => seen.push(e));
        const masks = [...new Set(secrets.flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]))];
        const expected: Buffer[] = [];
        const lines: unknown[] = [];
        corpus().forEach((e, i) => {
          if (i % 3 === 0) now++; // a few lines within one millisecond, then the next
          const plain = plainLine(e, new Date(now).toISOString(), masks);
          expected.push(Buffer.from(`${plain.text}\n`));
          lines.push(plain.line);
          if (e.taskId === undefined) w.append(e.event(), e.last);
          else w.appendTask(e.taskId, e.event(), e.last);
          if (i % 97 === 0) w.flushSync();
        });
        w.dispose();
        const raw = readFileSync(path);
        const want = Buffer.concat(expected);
        // Line by line first: a difference names its line.
        expect(raw.toString('utf8').split('\n')).toEqual(want.toString('utf8').split('\n'));
        expect(raw.equals(want)).toBe(true);
        if (secrets.length) expect(raw.includes(SECRET)).toBe(false);
        if (listening) expect(seen).toEqual(lines);
      });

  it('gives listeners the line with the time the file has, a millisecond later', () => {
    let now = Date.parse('2026-12-07T01:43:51.719Z');
    vi.spyOn(Date, 'now').mockImplementation(() => now++);
    const path = join(mkdtempSync(join(tmpdir(), 'trace-encoding-')), 'trace.jsonl');
    const w = createTraceWriter(path, SESSION);
    const seen: Array<{ ts: string }> = [];
    w.subscribe((e) => seen.push(e as unknown as { ts: string }));
    w.appendTask('tsk_1', { event_type: 'task_start' });
    w.appendTask('tsk_1', { event_type: 'task_end' }, field('final', [1]));
    w.append({ context_id: 'c', event_type: 'type_late' });
    w.dispose();
    const times = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).ts);
    expect(new Set(times).size).toBe(3);
    expect(seen.map((e) => e.ts)).toEqual(times);
  });
});
