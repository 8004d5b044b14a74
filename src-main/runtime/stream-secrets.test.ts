import { afterEach, describe, expect, it } from 'vitest';
import { FRAMES_EXTENSION_URI } from '../../src-shared/a2a';
import { readSse } from '../door/stream/sse-reader';
import { startFakeProvider, type FakeProvider } from '../drivers/fakes';
import type { TraceEvent } from '../../src-shared/trace';
import { startTestSession, type TestSession } from './testing';
import { traceLines } from './trace-lines';

// A model that echoes a secret while streaming spreads it over many deltas, one `frame` trace line
// each. Whatever the split (1-character deltas, random sizes, the rehearsal driver's own stream
// fragments), joining the frames never gives the secret back: not in trace.jsonl, not to a live
// subscriber (the feed of the Studio's trace.appended), not in a door's SSE frames.

const SECRET = 'sk-proj-Zq7wX2mN9vB4';

let ts: TestSession | undefined;
let fake: FakeProvider | undefined;
afterEach(async () => {
  await ts?.dispose();
  await fake?.dispose();
  ts = fake = undefined;
});

function seededSizes(seed: number) {
  return () => 1 + ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % 7);
}

function split(text: string, size: () => number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length;) {
    const n = size();
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

/** SendStreamingMessage with the frames extension; the text of every text_delta frame, in order. */
async function streamedDeltas(url: string, text: string): Promise<string[]> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'a2a-version': '1.0',
      accept: 'text/event-stream',
      'a2a-extensions': FRAMES_EXTENSION_URI,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendStreamingMessage',
      params: { message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] } },
    }),
  });
  const out: string[] = [];
  for await (const e of readSse(res.body as never)) {
    const frame = JSON.parse(e.data).result?.statusUpdate?.metadata?.[FRAMES_EXTENSION_URI];
    if (frame?.kind === 'text_delta') out.push(frame.text);
  }
  return out;
}

const deltasIn = (events: Array<Record<string, any>>) =>
  events.filter((e) => e.event_type === 'frame' && e.kind === 'text_delta').map((e) => e.text as string);

describe('secrets in streamed frames', () => {
  it('a provider streaming a secret in 1-character and random-size deltas: no frame sequence rebuilds it', async () => {
    fake = await startFakeProvider('chat');
    ts = await startTestSession(
      {
        artifacts: [{ name: 'capsule/driver-openai-compatible', runtime: 'driver', gateway: { endpoint: fake.url } }],
        inference: {
          transport: 'http',
          model: 'llama3.1:8b',
          driver: { artifact: 'capsule/driver-openai-compatible' },
        },
      },
      { secrets: [SECRET] },
    );
    const live: TraceEvent[] = [];
    ts.session.trace.subscribe((e) => live.push(e));
    const text = `The key you gave me is ${SECRET}; keep ${SECRET} safe.`;
    fake.reply(
      { turn: { text, deltas: [...text] } },
      { turn: { text, deltas: split(text, seededSizes(3)) } },
      { turn: { text, deltas: split(text, seededSizes(11)) } },
    );

    const sse = [
      await streamedDeltas(ts.session.url, 'one'),
      await streamedDeltas(ts.session.url, 'two'),
      await streamedDeltas(ts.session.url, 'three'),
    ];
    const written = deltasIn(traceLines(ts.session));
    const seen = deltasIn(live as never);
    expect(written.length).toBeGreaterThan(20);
    for (const frames of [written, seen, ...sse]) {
      const joined = frames.join('');
      expect(joined).not.toContain(SECRET);
      expect(joined).toContain('***');
    }
    // The stream still says everything else, in order.
    expect(sse[0].join('')).toBe('The key you gave me is ***; keep *** safe.');
    expect(sse[2].join('')).toBe(sse[0].join(''));
  });

  it("the rehearsal driver's stream fragments: a secret spanning two of them is masked too", async () => {
    // Its frames are "fragment 1 ", "fragment 2 ", …: this value starts in one and ends in the next.
    const secret = 'ment 3 fragment 4';
    ts = await startTestSession(
      {
        inference: {
          rehearsal: { replies: [{ turns: [{ text: 'streamed', stream: { frames: 6, per_second: 1000 } }] }] },
        },
      },
      { secrets: [secret] },
    );
    const sse = await streamedDeltas(ts.session.url, 'go');
    const written = deltasIn(traceLines(ts.session));
    for (const frames of [written, sse]) {
      expect(frames.join('')).toBe('fragment 1 fragment 2 frag*** fragment 5 fragment 6 ');
      expect(frames.join('')).not.toContain(secret);
    }
  });
});
