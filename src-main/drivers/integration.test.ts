import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Tool } from '../runtime';
import { startTestSession, waitFor, type TestSession } from '../runtime/testing';
import { traceLines } from '../runtime/trace-lines';
import { CASES, KEY, type DriverCase } from './fakes/cases';
import { startFakeProvider, type FakeProvider } from './fakes';

// Each provider driver inside the real agent loop and door, against its fake provider: a task
// with a tool call completes, a cancel mid-inference drops the request at once, a refused key
// fails the task, and the key shows up nowhere (trace, agent card, task, errors).

const ARTIFACT: Record<DriverCase['kind'], string> = {
  anthropic: 'murmur/driver-anthropic',
  openai: 'murmur/driver-openai',
  deepseek: 'murmur/driver-deepseek',
  'openai-compatible': 'capsule/driver-openai-compatible',
};

const weather: Tool = {
  spec: {
    name: 'get_weather',
    description: 'Current weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
  run: async (args) => ({ ok: true, content: `${String(args.city)}: 18C sunny` }),
};

let ts: TestSession | undefined;
let fake: FakeProvider | undefined;
afterEach(async () => {
  await ts?.dispose();
  await fake?.dispose();
  ts = fake = undefined;
});

async function capsuleOn(c: DriverCase, key = KEY) {
  fake = await startFakeProvider(c.wire, c.keyed ? { key: KEY } : {});
  const endpoint = c.stripV1 ? fake.url.replace(/\/v1$/, '') : fake.url;
  ts = await startTestSession(
    {
      artifacts: [
        { name: ARTIFACT[c.kind], runtime: 'driver', gateway: { endpoint, ...(c.keyed ? { api_key: key } : {}) } },
      ],
      inference: { transport: 'http', model: c.model, driver: { artifact: ARTIFACT[c.kind] }, max_tokens: 256 },
    },
    { tools: [weather] },
  );
  return { fake, ts };
}

const send = (text: string, immediate = false) => ({
  message: { messageId: `m-${Math.random()}`, contextId: 'ctx-1', role: 'ROLE_USER', parts: [{ text }] },
  ...(immediate ? { configuration: { returnImmediately: true } } : {}),
});

function toolResultSent(c: DriverCase, body: any): unknown {
  if (c.wire === 'anthropic') return body.messages.at(-1).content.find((b: any) => b.type === 'tool_result');
  if (c.wire === 'chat') return body.messages.find((m: any) => m.role === 'tool');
  return body.input.find((i: any) => i.type === 'function_call_output');
}

describe.each(CASES)('$label capsule', (c) => {
  it('completes a task with a tool call through the real loop, and the key stays secret', async () => {
    const { fake, ts } = await capsuleOn(c);
    fake.reply(
      {
        turn: {
          text: 'Looking.',
          toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris' } }],
          tokensIn: 50,
          tokensOut: 12,
        },
      },
      { turn: { text: 'Paris is 18C and sunny.', tokensIn: 80, tokensOut: 9 } },
    );
    const r = await ts.rpc('SendMessage', send('Weather in Paris?'));
    const task = r.result.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts[0].parts[0].text).toBe('Paris is 18C and sunny.');

    expect(fake.requests).toHaveLength(2);
    const sent = toolResultSent(c, fake.requests[1].body);
    if (c.wire === 'anthropic')
      expect(sent).toEqual({ type: 'tool_result', tool_use_id: 'call_w1', content: 'Paris: 18C sunny' });
    if (c.wire === 'chat') expect(sent).toEqual({ role: 'tool', tool_call_id: 'call_w1', content: 'Paris: 18C sunny' });
    if (c.wire === 'responses')
      expect(sent).toEqual({ type: 'function_call_output', call_id: 'call_w1', output: 'Paris: 18C sunny' });

    const lines = traceLines(ts.session).filter((l) => l.task_id === task.id);
    expect(
      lines.filter((l) => l.event_type === 'inference').map((l) => [l.tokens_in, l.tokens_out, l.stop_reason]),
    ).toEqual([
      [50, 12, 'tool_use'],
      [80, 9, 'end_turn'],
    ]);
    expect(lines.find((l) => l.event_type === 'task_end')).toMatchObject({
      exit_status: 'ok',
      tokens_in: 130,
      tokens_out: 21,
      turns: 2,
    });
    // Streamed text reaches the trace as it arrives, before the turn's inference line.
    const deltas = lines.filter((l) => l.event_type === 'frame' && l.kind === 'text_delta');
    expect(
      deltas
        .filter((l) => l.turn === 2)
        .map((l) => l.text)
        .join(''),
    ).toBe('Paris is 18C and sunny.');
    const firstDelta = lines.findIndex((l) => l.event_type === 'frame' && l.turn === 2);
    const secondInference = lines.findIndex((l) => l.event_type === 'inference' && l.turn === 2);
    expect(firstDelta).toBeGreaterThan(-1);
    expect(firstDelta).toBeLessThan(secondInference);

    if (c.keyed) {
      const card = await (await fetch(`${ts.session.url}/.well-known/agent-card.json`)).text();
      const everything = [
        readFileSync(ts.session.trace.path, 'utf8'),
        card,
        JSON.stringify(r),
        JSON.stringify(ts.session.listTasks()),
      ].join('\n');
      expect(everything).not.toContain(KEY);
      expect(String(fake.requests[0].headers.authorization ?? fake.requests[0].headers['x-api-key'])).toContain(KEY);
    }
  });

  it('cancel mid-inference: CANCELED at once, the provider sees the request dropped, nothing recorded after', async () => {
    const { fake, ts } = await capsuleOn(c);
    fake.reply({ hang: { text: 'Let me think' } });
    const id = (await ts.rpc('SendMessage', send('Think hard', true))).result.task.id;
    const req = await fake.request(0);
    await req.streaming;
    const t0 = performance.now();
    const r = await ts.rpc('CancelTask', { id });
    const answeredMs = performance.now() - t0;
    expect(r.result.status.state).toBe('TASK_STATE_CANCELED');
    await req.closed;
    // The model never finishes, so any answer proves the cancel did not wait for it; the bound is
    // loose because test machines are loaded (typically 40-70 ms here; bench/ measures it properly).
    expect(answeredMs).toBeLessThan(1_000);
    if (process.env.CAPSULE_SHOW_TIMING) console.log(`cancel answered in ${answeredMs.toFixed(1)} ms`);
    await waitFor(ts.session, () =>
      traceLines(ts.session).some((l) => l.task_id === id && l.event_type === 'task_end'),
    );
    const lines = traceLines(ts.session).filter((l) => l.task_id === id);
    expect(lines.find((l) => l.event_type === 'task_end')).toMatchObject({ exit_status: 'canceled' });
    expect(lines.some((l) => l.event_type === 'task_failed' || l.event_type === 'inference')).toBe(false);
    expect(ts.session.peekTask(id)!.status.state).toBe('TASK_STATE_CANCELED');
  });

  it.runIf(c.keyed)('a refused key fails the task with the status, never the key', async () => {
    const wrong = 'sk-wrong-5a4b3c2d1e0f9a8b';
    const { fake, ts } = await capsuleOn(c, wrong);
    const r = await ts.rpc('SendMessage', send('hello'));
    expect(r.result.task.status.state).toBe('TASK_STATE_FAILED');
    expect(r.result.task.status.message.parts[0].text).toBe(
      `task failed: ${c.kind}: HTTP 401 — authentication_error: invalid api key`,
    );
    const failed = traceLines(ts.session).find((l) => l.event_type === 'task_failed');
    expect(failed).toMatchObject({ cause: 'inference_error' });
    expect(fake.requests).toHaveLength(1);
    const everything = [readFileSync(ts.session.trace.path, 'utf8'), JSON.stringify(r)].join('\n');
    expect(everything).not.toContain(wrong);
  });
});
