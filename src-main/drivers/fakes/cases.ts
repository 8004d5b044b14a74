import { createHttpDriver, type HttpDriverKind } from '../http';
import type { HttpDriverOptions } from '../gateway';
import type { ChatMessage, ToolSpec } from '../types';
import { startFakeProvider, type FakeProvider, type WireName } from './provider-server';

// The driver/fake pairs every HTTP driver test runs against, and a conversation that exercises
// tool calls and tool results in each provider's format.

export const KEY = 'sk-test-9f8e7d6c5b4a39281706';

export interface DriverCase {
  label: string;
  kind: HttpDriverKind;
  wire: WireName;
  model: string;
  /** The model id the provider should receive. */
  sentModel: string;
  path: string;
  keyed: boolean;
  /** DeepSeek is configured as its docs say, without /v1. */
  stripV1?: boolean;
}

export const CASES: DriverCase[] = [
  {
    label: 'anthropic',
    kind: 'anthropic',
    wire: 'anthropic',
    model: 'claude-sonnet-4-6',
    sentModel: 'claude-sonnet-4-6',
    path: '/v1/messages',
    keyed: true,
  },
  {
    label: 'openai chat',
    kind: 'openai',
    wire: 'chat',
    model: 'gpt-4.1',
    sentModel: 'gpt-4.1',
    path: '/v1/chat/completions',
    keyed: true,
  },
  {
    label: 'openai responses',
    kind: 'openai',
    wire: 'responses',
    model: 'o3-pro',
    sentModel: 'o3-pro',
    path: '/v1/responses',
    keyed: true,
  },
  {
    label: 'deepseek',
    kind: 'deepseek',
    wire: 'chat',
    model: 'deepseek-r1',
    sentModel: 'deepseek-reasoner',
    path: '/chat/completions',
    keyed: true,
    stripV1: true,
  },
  {
    label: 'openai-compatible',
    kind: 'openai-compatible',
    wire: 'chat',
    model: 'llama3.1:8b',
    sentModel: 'llama3.1:8b',
    path: '/v1/chat/completions',
    keyed: false,
  },
];

export async function setup(c: DriverCase, extra: Partial<HttpDriverOptions> = {}) {
  const fake: FakeProvider = await startFakeProvider(c.wire, c.keyed ? { key: KEY } : {});
  const endpoint = c.stripV1 ? fake.url.replace(/\/v1$/, '') : fake.url;
  const driver = createHttpDriver(c.kind, {
    model: c.model,
    endpoint,
    apiKey: c.keyed ? KEY : undefined,
    retry: { baseDelayMs: 5, maxDelayMs: 2_000 },
    ...extra,
  });
  return { fake, driver };
}

export const WEATHER_TOOL: ToolSpec = {
  name: 'get_weather',
  description: 'Current weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

export const CONVERSATION: ChatMessage[] = [
  { role: 'user', content: 'Weather in Paris and Lyon?' },
  {
    role: 'assistant',
    content: 'Checking Paris.',
    toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }],
  },
  { role: 'tool', toolCallId: 'call_1', name: 'get_weather', content: '18C sunny' },
];

export function turnRequest(signal = new AbortController().signal) {
  return { system: 'Be brief.', messages: CONVERSATION, tools: [WEATHER_TOOL], maxTokens: 321, turn: 2, signal };
}
