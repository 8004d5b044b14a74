import { createReadStream } from 'node:fs';
import { z } from 'zod';
import { invalidParams } from '../../../src-shared/a2a';
import type { TraceEvent } from '../../../src-shared/trace';
import type { Session } from '../../runtime/api';
import { streamTraceLines } from '../../trace';
import type { SseStream } from './sse';

// murmur.WatchSession: the session's trace events on an SSE stream, live. Each event's result is
// `{seq, event}`, seq being the event's line number in trace.jsonl (1-based), so a watcher that
// drops can come back with `from: <last seq + 1>`. `from` is 'now' (default), 'start', a seq, or
// an RFC 3339 time (events at or after it). The stream closes after session_end.
//
// Live events are subscribed to first and held while the file is read up to the size it had at
// that moment (flushed in the same tick), so the replay and the live part meet without a gap or a
// repeat. The file is streamed, whatever its size: the door runs in the Studio's main process, whose
// thread belongs to its window (a door closing during that read ends the stream where the read had
// got to). Old lines are read by the rules every trace reader follows (trace/line.ts): a line too
// long, not an event, nested too deep or claiming another session is not sent, but keeps its seq.

export const watchParamsSchema = z
  .object({
    from: z
      .union([z.literal('now'), z.literal('start'), z.number().int().min(1), z.iso.datetime({ offset: true })])
      .optional(),
  })
  .passthrough();

export type WatchFrom = 'now' | 'start' | number | string;

/** Result of one WatchSession event. */
export interface WatchEvent {
  seq: number;
  event: TraceEvent;
}

export function parseWatchParams(params: unknown): { from: WatchFrom } {
  const parsed = watchParamsSchema.safeParse(params ?? {});
  if (!parsed.success)
    throw invalidParams('params.from', "expected 'now', 'start', a trace seq (1, 2, …) or an RFC 3339 time");
  return { from: parsed.data.from ?? 'now' };
}

export type WatchedSession = Pick<Session, 'trace' | 'ended'>;

/** Streams the session's trace to `sse`; resolves once the file is replayed and the stream is live. */
export async function watchSession(session: WatchedSession, sse: SseStream, from: WatchFrom): Promise<void> {
  let replayed!: () => void;
  const done = new Promise<void>((r) => (replayed = r));
  const held: TraceEvent[] = [];
  let replaying = true;
  let seq = 0;
  const fromTs = typeof from === 'string' && from !== 'now' && from !== 'start' ? Date.parse(from) : undefined;

  const wanted = (n: number, e: TraceEvent) => {
    if (from === 'start') return true;
    if (typeof from === 'number') return n >= from;
    if (fromTs !== undefined) return Date.parse(e.ts) >= fromTs;
    return false;
  };

  const emit = (event: TraceEvent, live: boolean) => {
    seq++;
    if (sse.closed) return;
    if (live || wanted(seq, event)) sse.send({ seq, event } satisfies WatchEvent);
    if (event.event_type === 'session_end') sse.close();
  };

  const unsubscribe = session.trace.subscribe((e) => (replaying ? held.push(e) : emit(e, true)));
  sse.onClose(unsubscribe);
  // The lines appended before the subscription, once written, end at `size`; later ones are held.
  const path = session.trace.path;
  const size = await session.trace.flush();
  let sessionEnded = false;
  void session.ended.then(() => {
    sessionEnded = true;
    // session_end normally closes the stream first; this covers a session that ended without one.
    if (!replaying) setImmediate(() => sse.close());
  });

  const finishReplay = () => {
    if (!replaying) return;
    replaying = false;
    for (const e of held.splice(0)) emit(e, true);
    if (sessionEnded) sse.close();
    replayed();
  };

  if (!size) {
    finishReplay();
    return done;
  }
  if (from === 'now') {
    // Nothing old is sent: count lines for the seqs without parsing them.
    const input = createReadStream(path, { start: 0, end: size - 1 });
    sse.onClose(() => input.destroy());
    input.on('data', (chunk) => {
      const buf = chunk as Buffer;
      for (let i = buf.indexOf(10); i >= 0; i = buf.indexOf(10, i + 1)) seq++;
    });
    input.on('close', finishReplay);
    return done;
  }
  // A skipped line still holds its place, so seqs stay line numbers.
  streamTraceLines(path, { upTo: size, session: session.trace.sessionId, blank: true }, (batch) => {
    for (const l of batch) {
      if (sse.closed) return false;
      if ('event' in l) emit(l.event as TraceEvent, false);
      else seq++;
    }
  }).then(finishReplay, finishReplay);
  return done;
}
