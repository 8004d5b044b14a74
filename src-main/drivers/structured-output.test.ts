import { afterEach, describe, expect, it } from 'vitest';
import { startTestSession, type TestSession } from '../runtime/testing';
import { traceLines } from '../runtime/trace-lines';
import { CASES, KEY, type DriverCase } from './fakes/cases';
import { startFakeProvider, type FakeProvider } from './fakes';

// The output contract (manifest `responds`) with each provider driver, through the real loop and
// door, against its fake provider: the request carries the schema in the provider's structured
// output mode (a `respond` tool for DeepSeek, which has none), an answer that does not fit is
// sent back with its problems, and the fitting one becomes the response's data part.

const ARTIFACT: Record<DriverCase['kind'], string> = {
  anthropic: 'murmur/driver-anthropic',
  openai: 'murmur/driver-openai',
  deepseek: 'murmur/driver-deepseek',
  'openai-compatible': 'capsule/driver-openai-compatible',
};

const SCHEMA = {
  type: 'object',
  properties: { summary: { type: 'string' }, findings: { type: 'array', items: { type: 'string' } } },
  required: ['summary', 'findings'],
};

let ts: TestSession | undefined;
let fake: FakeProvider | undefined;
afterEach(async () => {
  await ts?.dispose();
  await fake?.dispose();
  ts = fake = undefined;
});

function schemaSent(c: DriverCase, body: any): unknown {
  if (c.kind === 'deepseek') return body.tools?.find((t: any) => t.function.name === 'respond')?.function.parameters;
  if (c.wire === 'anthropic') return body.output_config?.format;
  if (c.wire === 'chat') return body.response_format;
  return body.text?.format;
}

const expectedForm = (c: DriverCase) =>
  c.kind === 'deepseek'
    ? SCHEMA
    : c.wire === 'anthropic'
      ? { type: 'json_schema', schema: SCHEMA }
      : c.wire === 'chat'
        ? { type: 'json_schema', json_schema: { name: 'response', schema: SCHEMA, strict: false } }
        : { type: 'json_schema', name: 'response', schema: SCHEMA, strict: false };

/** The answer as the provider sends it: JSON text, or the respond tool's arguments. */
const answer = (c: DriverCase, value: Record<string, unknown>, n: number) =>
  c.kind === 'deepseek'
    ? { text: 'Here it is.', toolCalls: [{ id: `call_${n}`, name: 'respond', arguments: value }] }
    : { text: JSON.stringify(value) };

/** What the loop sent back about the bad answer, as the provider received it. */
function correctionSent(c: DriverCase, body: any): string {
  if (c.wire === 'anthropic') {
    const last = body.messages.at(-1).content.at(-1);
    return last.type === 'tool_result' ? last.content : last.text;
  }
  if (c.wire === 'chat') return body.messages.at(-1).content;
  const last = body.input.at(-1);
  return last.output ?? last.content;
}

describe.each(CASES)('$label with an output contract', (c) => {
  it('asks for the schema, sends back what did not fit, and answers with a data part beside its text', async () => {
    fake = await startFakeProvider(c.wire, c.keyed ? { key: KEY } : {});
    const endpoint = c.stripV1 ? fake.url.replace(/\/v1$/, '') : fake.url;
    ts = await startTestSession({
      artifacts: [
        { name: ARTIFACT[c.kind], runtime: 'driver', gateway: { endpoint, ...(c.keyed ? { api_key: KEY } : {}) } },
      ],
      inference: {
        transport: 'http',
        model: c.model,
        driver: { artifact: ARTIFACT[c.kind] },
        max_tokens: 256,
        max_turns: 3,
      },
      responds: SCHEMA,
    });
    fake.reply(
      { turn: answer(c, { summary: 42 }, 1) },
      { turn: answer(c, { summary: 'Two findings.', findings: ['a', 'b'] }, 2) },
    );

    const r = await ts.rpc('SendMessage', {
      message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'research x' }] },
    });
    const task = r.result.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const response = task.artifacts.find((a: any) => a.artifactId === 'response');
    expect(response.parts[1]).toEqual({
      data: { summary: 'Two findings.', findings: ['a', 'b'] },
      mediaType: 'application/json',
    });
    expect(response.parts[0].text).toContain('summary: Two findings.');

    expect(fake.requests).toHaveLength(2);
    expect(schemaSent(c, fake.requests[0].body)).toEqual(expectedForm(c));
    const told = correctionSent(c, fake.requests[1].body);
    expect(told).toContain('summary: must be string');
    expect(told).toContain('findings: is required');
    expect(traceLines(ts.session).find((l) => l.event_type === 'answer_invalid')).toMatchObject({ turn: 1 });
  });
});
