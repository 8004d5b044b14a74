import { afterEach, describe, expect, it } from 'vitest';
import { CASES, KEY, WEATHER_TOOL, setup, turnRequest, type DriverCase } from './fakes/cases';
import type { FakeProvider, RecordedRequest } from './fakes';
import { createHttpDriver } from './http';
import { InferenceError, type TurnFrame } from './types';

// One streamed turn per driver against its provider's wire: what goes out (path, key, model,
// limits, tools, the conversation with its tool results) and what comes back.

const REPLY = {
  text: 'Paris is 18C. Now Lyon.',
  toolCalls: [{ id: 'call_2', name: 'get_weather', arguments: { city: 'Lyon' } }],
  tokensIn: 120,
  tokensOut: 30,
};

function expectWireBody(c: DriverCase, r: RecordedRequest) {
  const b = r.body;
  expect(b.model).toBe(c.sentModel);
  expect(b.stream).toBe(true);
  if (c.wire === 'anthropic') {
    expect(r.headers['anthropic-version']).toBeTruthy();
    expect(b.max_tokens).toBe(321);
    expect(b.system).toBe('Be brief.');
    expect(b.tools).toEqual([
      { name: 'get_weather', description: WEATHER_TOOL.description, input_schema: WEATHER_TOOL.parameters },
    ]);
    expect(b.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Lyon?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking Paris.' },
          { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: '18C sunny' }] },
    ]);
  } else if (c.wire === 'chat') {
    expect(b[c.kind === 'openai' ? 'max_completion_tokens' : 'max_tokens']).toBe(321);
    expect(b.stream_options).toEqual({ include_usage: true });
    expect(b.tools).toEqual([
      {
        type: 'function',
        function: { name: 'get_weather', description: WEATHER_TOOL.description, parameters: WEATHER_TOOL.parameters },
      },
    ]);
    expect(b.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris and Lyon?' },
      {
        role: 'assistant',
        content: 'Checking Paris.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '18C sunny' },
    ]);
  } else {
    expect(b.max_output_tokens).toBe(321);
    expect(b.instructions).toBe('Be brief.');
    expect(b.store).toBe(false);
    expect(b.tools).toEqual([
      {
        type: 'function',
        name: 'get_weather',
        description: WEATHER_TOOL.description,
        parameters: WEATHER_TOOL.parameters,
        strict: false,
      },
    ]);
    expect(b.input).toEqual([
      { role: 'user', content: 'Weather in Paris and Lyon?' },
      { role: 'assistant', content: 'Checking Paris.' },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'call_1', output: '18C sunny' },
    ]);
  }
}

describe.each(CASES)('$label driver turn', (c) => {
  let fake: FakeProvider;
  afterEach(() => fake?.dispose());

  it('streams text and a tool call, maps stop reason and usage, and sends the provider its own format', async () => {
    const s = await setup(c);
    fake = s.fake;
    fake.reply({ turn: REPLY });
    const frames: TurnFrame[] = [];
    const result = await s.driver.turn({ ...turnRequest(), onFrame: (f) => frames.push(f) });

    expect(result).toEqual({
      text: REPLY.text,
      toolCalls: REPLY.toolCalls,
      stopReason: 'tool_use',
      tokensIn: 120,
      tokensOut: 30,
    });
    const texts = frames.filter((f) => f.kind === 'text');
    expect(texts.length).toBeGreaterThan(1);
    expect(texts.map((f) => f.text).join('')).toBe(REPLY.text);
    expect(frames[frames.length - 1]).toEqual({ kind: 'tool_call', call: REPLY.toolCalls[0] });

    const r = fake.requests[0];
    expect(r.method).toBe('POST');
    expect(r.path).toBe(c.path);
    if (c.keyed) expect(String(r.headers.authorization ?? r.headers['x-api-key'])).toContain(KEY);
    else expect(r.headers.authorization).toBeUndefined();
    expectWireBody(c, r);
  });

  it('maps a reply cut off at the token limit to max_tokens, and a plain reply to end_turn', async () => {
    const s = await setup(c);
    fake = s.fake;
    fake.reply({ turn: { text: 'cut sho', stop: 'max_tokens' } }, { turn: { text: 'done' } });
    expect((await s.driver.turn(turnRequest())).stopReason).toBe('max_tokens');
    const plain = await s.driver.turn({ ...turnRequest(), tools: [] });
    expect(plain).toMatchObject({ text: 'done', toolCalls: [], stopReason: 'end_turn' });
    expect(fake.requests[1].body.tools).toBeUndefined();
  });

  it.runIf(c.keyed)('fails with a clear InferenceError when the manifest gives no key', async () => {
    const s = await setup(c);
    fake = s.fake;
    const keyless = createHttpDriver(c.kind, { model: c.model, endpoint: fake.url });
    const err = await keyless.turn(turnRequest()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InferenceError);
    expect((err as Error).message).toMatch(/no API key/);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('openai reasoning models on Chat Completions', () => {
  it('sends o3-mini-high as o3-mini with reasoning_effort high, a developer message and no temperature', async () => {
    const c = CASES.find((x) => x.label === 'openai chat')!;
    const s = await setup({ ...c, model: 'o3-mini-high' }, { temperature: 0.3 });
    try {
      s.fake.reply({ turn: { text: 'ok' } });
      await s.driver.turn(turnRequest());
      const b = s.fake.requests[0].body;
      expect(b).toMatchObject({ model: 'o3-mini', reasoning_effort: 'high', max_completion_tokens: 321 });
      expect(b.temperature).toBeUndefined();
      expect(b.messages[0]).toEqual({ role: 'developer', content: 'Be brief.' });
    } finally {
      await s.fake.dispose();
    }
  });
});

describe('credentials come from the manifest only', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of ['OPENAI_API_KEY', 'OPENAI_ORG_ID', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_API_KEY']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it('a keyless local server never receives a key from the environment', async () => {
    Object.assign(process.env, {
      OPENAI_API_KEY: 'sk-env-openai-0000',
      OPENAI_ORG_ID: 'org-env',
      ANTHROPIC_AUTH_TOKEN: 'tok-env-0000',
    });
    const local = await setup(CASES.find((x) => x.label === 'openai-compatible')!);
    const anthropic = await setup(CASES.find((x) => x.label === 'anthropic')!);
    try {
      local.fake.reply({ turn: { text: 'ok' } });
      anthropic.fake.reply({ turn: { text: 'ok' } });
      await local.driver.turn(turnRequest());
      await anthropic.driver.turn(turnRequest());
      const sent = JSON.stringify([local.fake.requests[0].headers, anthropic.fake.requests[0].headers]);
      expect(sent).not.toMatch(/sk-env-openai|org-env|tok-env/);
      expect(local.fake.requests[0].headers.authorization).toBeUndefined();
    } finally {
      await local.fake.dispose();
      await anthropic.fake.dispose();
    }
  });
});
