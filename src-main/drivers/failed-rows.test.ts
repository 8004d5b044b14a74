import { afterEach, describe, expect, it } from 'vitest';
import { startTestSession, type TestSession } from '../runtime/testing';
import { traceLines } from '../runtime/trace-lines';
import { CASES, KEY, type DriverCase } from './fakes/cases';
import { startFakeProvider, type FakeProvider, type FakeReply } from './fakes';

// The failure rules of docs/door.md (and the max_tokens COMPLETED exception) with real drivers on
// their providers' wires: the stop reasons, usage and errors the drivers map are the ones the
// loop's rules act on.

const ARTIFACT = { anthropic: 'murmur/driver-anthropic', openai: 'murmur/driver-openai' } as const;
const PROVIDERS = CASES.filter((c) => c.label === 'anthropic' || c.label === 'openai chat');

let ts: TestSession | undefined;
let fake: FakeProvider | undefined;
afterEach(async () => {
  await ts?.dispose();
  await fake?.dispose();
  ts = fake = undefined;
});

const tool = {
  spec: { name: 'look', description: 'looks', parameters: { type: 'object', properties: {} } },
  run: async () => ({ ok: true as const, content: 'seen' }),
};

async function run(c: DriverCase, inference: Record<string, unknown>, replies: FakeReply[], model = c.model) {
  fake = await startFakeProvider(c.wire, { key: KEY });
  fake.reply(...replies);
  const artifact = ARTIFACT[c.kind as keyof typeof ARTIFACT];
  ts = await startTestSession(
    {
      artifacts: [{ name: artifact, runtime: 'driver', gateway: { endpoint: fake.url, api_key: KEY } }],
      inference: { transport: 'http', model, driver: { artifact }, ...inference },
    },
    { tools: [tool] },
  );
  const r = await ts.rpc('SendMessage', {
    message: { messageId: 'm1', contextId: 'c1', role: 'ROLE_USER', parts: [{ text: 'go' }] },
  });
  const lines = traceLines(ts.session);
  return { task: r.result.task, failed: lines.find((l) => l.event_type === 'task_failed'), lines };
}

const looking: FakeReply = { turn: { toolCalls: [{ id: 'l1', name: 'look', arguments: {} }] } };
const emptyCut: FakeReply = { turn: { stop: 'max_tokens', tokensOut: 64 } };

describe.each(PROVIDERS)('$label: how a task ends', (c) => {
  it('an inference call that keeps failing FAILS after bounded, traced retries', async () => {
    const busy: FakeReply = {
      error: { status: 429, type: 'rate_limit_error', message: 'busy', headers: { 'retry-after-ms': '0' } },
    };
    const { task, failed, lines } = await run(c, {}, [busy, busy, busy, busy, busy]);
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(failed).toMatchObject({
      cause: 'inference_error',
      message: `${c.kind}: HTTP 429 — rate_limit_error: busy after 4 attempts`,
    });
    expect(lines.filter((l) => l.event_type === 'inference_retry').map((l) => l.attempt)).toEqual([1, 2, 3]);
    expect(fake!.requests).toHaveLength(4);
  });

  it('using every turn FAILS', async () => {
    const { task, failed } = await run(c, { max_turns: 2 }, [looking, looking]);
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(failed).toMatchObject({ cause: 'max_turns' });
  });

  it('two turns in a row cut off at max_tokens with nothing in them FAIL', async () => {
    const { task, failed } = await run(c, { max_tokens: 64 }, [emptyCut, emptyCut]);
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(failed).toMatchObject({ cause: 'max_tokens' });
    expect(fake!.requests.map((r) => r.body.max_tokens ?? r.body.max_completion_tokens)).toEqual([64, 64]);
  });

  it('a reply cut off at max_tokens on the last allowed turn still COMPLETES', async () => {
    const { task } = await run(c, { max_turns: 1, max_tokens: 8 }, [
      { turn: { text: 'The answer is', stop: 'max_tokens' } },
    ]);
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts[0].parts[0].text).toBe('The answer is');
  });

  it('a money ceiling FAILS a task on a model the price table knows', async () => {
    const model = c.kind === 'anthropic' ? 'claude-sonnet-4-6' : 'gpt-4o';
    const pricey: FakeReply = {
      turn: { toolCalls: [{ id: 'l1', name: 'look', arguments: {} }], tokensIn: 20_000, tokensOut: 100 },
    };
    const { task, failed } = await run(c, { budget: { max_usd: 0.01 } }, [pricey, { turn: { text: 'never' } }], model);
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(failed).toMatchObject({
      cause: 'budget',
      message: expect.stringMatching(/^spend ceiling reached: \$0\.0\d+ spent, inference\.budget\.max_usd is 0\.01$/),
    });
    expect(fake!.requests).toHaveLength(1);
  });
});
