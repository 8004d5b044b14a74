import { readFileSync } from 'node:fs';
import { MAX_TRACE_LINE_BYTES } from '../../trace';
import { describe, expect, it } from 'vitest';
import { startTestSession } from '../../runtime/testing';
import { readSse } from './sse-reader';

// murmur.WatchSession against a running door: trace events live, from now or from a point, and
// the stream ends with the session.

async function watch(url: string, params: unknown, signal?: AbortSignal) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'w', method: 'murmur.WatchSession', params }),
    signal,
  });
  return res;
}

/** Reads events until `stop` says so (or the stream ends). */
async function take(res: Response, stop: (events: any[]) => boolean = () => false) {
  const out: any[] = [];
  for await (const e of readSse(res.body as any)) {
    out.push(JSON.parse(e.data).result);
    if (stop(out)) break;
  }
  return out;
}

const send = (text: string) => ({ message: { messageId: `m-${text}`, role: 'ROLE_USER', parts: [{ text }] } });

describe('murmur.WatchSession', () => {
  it('from start: replays the trace, continues live, and closes when the session ends', async () => {
    const ts = await startTestSession();
    try {
      await ts.rpc('SendMessage', send('first'));
      const res = await watch(ts.session.url, { from: 'start' });
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      const reading = take(res);
      await ts.rpc('SendMessage', send('second'));
      await ts.session.end('test over');
      const got = await reading;
      expect(got.map((e) => e.seq)).toEqual(got.map((_e, i) => i + 1));
      const types = got.map((e) => e.event.event_type);
      expect(types[0]).toBe('session_start');
      expect(types.filter((t) => t === 'task_end')).toHaveLength(2);
      // what was streamed is the trace, line for line (session_end is written once the door has closed)
      const file = readFileSync(ts.session.trace.path, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(got.map((e) => e.event)).toEqual(file.slice(0, got.length));
      expect(file.at(-1).event_type).toBe('session_end');
      expect(got.filter((e) => e.event.event_type === 'a2a_task_received').map((e) => e.event.text)).toEqual([
        'first',
        'second',
      ]);
    } finally {
      await ts.dispose();
    }
  });

  it('from now: only new events, numbered after the lines already written; from <seq> resumes there', async () => {
    const ts = await startTestSession();
    try {
      await ts.rpc('SendMessage', send('before'));
      ts.session.trace.flushSync();
      const lines = readFileSync(ts.session.trace.path, 'utf8').trim().split('\n').length;
      const abort = new AbortController();
      const res = await watch(ts.session.url, {}, abort.signal);
      const reading = take(res, (evs) => evs.some((e) => e.event.event_type === 'task_end'));
      await ts.rpc('SendMessage', send('after'));
      const live = await reading;
      abort.abort();
      expect(live[0].seq).toBe(lines + 1);
      expect(live[0].event.event_type).toBe('a2a_task_received');
      expect(live[0].event.text).toBe('after');

      const abort2 = new AbortController();
      const resumed = await take(
        await watch(ts.session.url, { from: lines + 1 }, abort2.signal),
        (evs) => evs.length === live.length,
      );
      abort2.abort();
      expect(resumed).toEqual(live);

      const since = live[0].event.ts;
      const abort3 = new AbortController();
      const byTime = await take(await watch(ts.session.url, { from: since }, abort3.signal), (evs) => evs.length === 1);
      abort3.abort();
      expect(Date.parse(byTime[0].event.ts)).toBeGreaterThanOrEqual(Date.parse(since));
    } finally {
      await ts.dispose();
    }
  });

  it('refuses a bad from with -32602 as plain JSON', async () => {
    const ts = await startTestSession();
    try {
      const res = await watch(ts.session.url, { from: 'yesterday' });
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(((await res.json()) as any).error.code).toBe(-32602);
    } finally {
      await ts.dispose();
    }
  });

  it('open streams do not hold the session end, and end with it', async () => {
    const ts = await startTestSession({ inference: { rehearsal: { replies: [{ turns: [{ hang: true }] }] } } });
    const res = await watch(ts.session.url, { from: 'now' });
    const task = await fetch(ts.session.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 's', method: 'SendStreamingMessage', params: send('hang') }),
    });
    const reading = take(res);
    const taskEvents = take(task);
    await ts.dispose();
    const got = await reading;
    expect(got.map((e) => e.event.event_type)).toContain('task_canceled');
    const states = (await taskEvents).map((r) => r.task?.status.state ?? r.statusUpdate?.status.state).filter(Boolean);
    expect(states.at(-1)).toBe('TASK_STATE_CANCELED');
  });

  it('from start: does not send a line too long, nested too deep or of another session, and keeps seqs line numbers', async () => {
    const ts = await startTestSession();
    try {
      await ts.rpc('SendMessage', send('first'));
      const path = ts.session.trace.path;
      const own = ts.session.trace.sessionId;
      // Bad lines, through the session's own writer (the file is its alone): too long, another
      // session's, nested too deep.
      const trace = ts.session.trace;
      trace.append({ event_type: 'note', x: 'y'.repeat(MAX_TRACE_LINE_BYTES) });
      trace.append({ event_type: 'session_start', session_id: 'ses_forged', capsule: 'forged' });
      let deep: unknown = [];
      for (let i = 0; i < 299; i++) deep = [deep];
      trace.append({ event_type: 'note', x: deep });
      trace.flushSync();
      const lines = readFileSync(path, 'utf8').trim().split('\n').length;
      const abort = new AbortController();
      const res = await watch(ts.session.url, { from: 'start' }, abort.signal);
      const reading = take(res, (evs) =>
        evs.some((e) => e.event.event_type === 'a2a_task_received' && e.event.text === 'after'),
      );
      await ts.rpc('SendMessage', send('after'));
      const got = await reading;
      abort.abort();
      expect(got.every((e) => e.event.session_id === own && e.event.event_type !== 'note')).toBe(true);
      const after = got.findIndex((e) => e.event.text === 'after');
      expect(got[after - 1].seq).toBe(lines - 3);
      expect(got[after].seq).toBe(lines + 1);
    } finally {
      await ts.dispose();
    }
  });
});
