import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from './provider-server';

// The fakes answer non-streamed requests with the JSON bodies the official SDKs parse, so they are
// faithful beyond the streaming paths the drivers use.

let fake: FakeProvider | undefined;
afterEach(() => fake?.dispose());

const turn = {
  text: 'hi there',
  toolCalls: [{ id: 'c1', name: 'look', arguments: { q: 'x' } }],
  tokensIn: 7,
  tokensOut: 3,
};

describe('fake providers, JSON mode', () => {
  it('anthropic: a message with text and tool_use blocks', async () => {
    fake = await startFakeProvider('anthropic');
    fake.reply({ turn });
    const client = new Anthropic({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 });
    const msg = await client.messages.create({
      model: 'claude-haiku-4-5',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(msg.content).toEqual([
      { type: 'text', text: 'hi there' },
      { type: 'tool_use', id: 'c1', name: 'look', input: { q: 'x' } },
    ]);
    expect(msg).toMatchObject({ stop_reason: 'tool_use', usage: { input_tokens: 7, output_tokens: 3 } });
  });

  it('chat completions and responses: choices, tool calls, usage', async () => {
    fake = await startFakeProvider('chat');
    fake.reply({ turn });
    const client = new OpenAI({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 });
    const c = await client.chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] });
    expect(c.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: { content: 'hi there', tool_calls: [{ id: 'c1', function: { name: 'look', arguments: '{"q":"x"}' } }] },
    });
    expect(c.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 3 });
    await fake.dispose();

    fake = await startFakeProvider('responses');
    fake.reply({ turn });
    const r = await new OpenAI({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 }).responses.create({
      model: 'o3-pro',
      input: 'hi',
    });
    expect(r.output_text).toBe('hi there');
    expect(r.output[1]).toMatchObject({ type: 'function_call', call_id: 'c1', name: 'look' });
    expect(r.usage).toMatchObject({ input_tokens: 7, output_tokens: 3 });
  });
});
