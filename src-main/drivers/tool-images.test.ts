import { describe, expect, it } from 'vitest';
import { toAnthropicMessages } from './anthropic';
import { toChatMessages } from './openai-chat';
import { toResponsesInput } from './openai-responses';
import type { ChatMessage } from './types';

// A tool result's images (an MCP tool's) reach each provider as that API's image input, beside
// the result's text; audio, SVG and other files stay as the lines the text already has.

const PNG = 'iVBORw0KGgo=';
const conversation: ChatMessage[] = [
  { role: 'user', content: 'draw' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 'c1', name: 'art__draw', arguments: {} },
      { id: 'c2', name: 'art__say', arguments: {} },
    ],
  },
  {
    role: 'tool',
    toolCallId: 'c1',
    name: 'art__draw',
    content: '[image image/png, 8 bytes]',
    parts: [
      { raw: PNG, mediaType: 'image/png' },
      { url: 'https://example.com/chart.webp', mediaType: 'image/webp' },
      { raw: 'AAAA', mediaType: 'audio/wav' },
      { raw: 'PHN2Zz4=', mediaType: 'image/svg+xml' },
    ],
  },
  { role: 'tool', toolCallId: 'c2', name: 'art__say', content: 'plain' },
  { role: 'assistant', content: 'done' },
];

describe('tool result images for the provider drivers', () => {
  it('Anthropic: a tool_result with a text block and image blocks (bytes and URL)', () => {
    const user = toAnthropicMessages(conversation)[2];
    expect(user.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'c1',
        content: [
          { type: 'text', text: '[image image/png, 8 bytes]' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/chart.webp' } },
        ],
      },
      { type: 'tool_result', tool_use_id: 'c2', content: 'plain' },
    ]);
  });

  it('Chat Completions: the tool messages first, then one user message with the images', () => {
    const out = toChatMessages(conversation, undefined, 'system');
    expect(out.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'user', 'assistant']);
    expect(out[2]).toEqual({ role: 'tool', tool_call_id: 'c1', content: '[image image/png, 8 bytes]' });
    expect(out[4].content).toEqual([
      { type: 'text', text: 'The images the tool results above returned:' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
      { type: 'image_url', image_url: { url: 'https://example.com/chart.webp' } },
    ]);
    // Without images nothing is added.
    expect(toChatMessages(conversation.slice(0, 2), undefined, 'system')).toHaveLength(2);
  });

  it('Responses: a function_call_output whose output is its text and input_image items', () => {
    const out = toResponsesInput(conversation).filter((m) => m.type === 'function_call_output');
    expect(out[0].output).toEqual([
      { type: 'input_text', text: '[image image/png, 8 bytes]' },
      { type: 'input_image', image_url: `data:image/png;base64,${PNG}` },
      { type: 'input_image', image_url: 'https://example.com/chart.webp' },
    ]);
    expect(out[1].output).toBe('plain');
  });
});
