import { pieces, sse, type FakeTurn, type Wire } from './script';

// Anthropic Messages API as the service sends it: POST /v1/messages, named SSE events.

function start(model: string, tokensIn: number): string[] {
  return [
    sse('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_fake',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: tokensIn, output_tokens: 1 },
      },
    }),
    sse('ping', { type: 'ping' }),
  ];
}

function textBlock(index: number, text: string): string[] {
  return [
    sse('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }),
    ...pieces(text).map((t) =>
      sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: t } }),
    ),
  ];
}

function stopOf(turn: FakeTurn): string {
  return turn.stop ?? (turn.toolCalls?.length ? 'tool_use' : 'end_turn');
}

export const anthropicWire: Wire = {
  basePath: '',
  paths: ['/v1/messages'],
  streamStart: (text, model) => [...start(model, 10), ...textBlock(0, text)],
  streamTurn(turn, model) {
    const out = start(model, turn.tokensIn ?? 10);
    let index = 0;
    if (turn.text) {
      out.push(...textBlock(index, turn.text), sse('content_block_stop', { type: 'content_block_stop', index }));
      index++;
    }
    for (const call of turn.toolCalls ?? []) {
      out.push(
        sse('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
        }),
      );
      for (const part of pieces(JSON.stringify(call.arguments))) {
        out.push(
          sse('content_block_delta', {
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: part },
          }),
        );
      }
      out.push(sse('content_block_stop', { type: 'content_block_stop', index }));
      index++;
    }
    out.push(
      sse('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: stopOf(turn), stop_sequence: null },
        usage: { output_tokens: turn.tokensOut ?? 5 },
      }),
      sse('message_stop', { type: 'message_stop' }),
    );
    return out;
  },
  jsonTurn(turn, model) {
    const content: unknown[] = [];
    if (turn.text) content.push({ type: 'text', text: turn.text });
    for (const c of turn.toolCalls ?? [])
      content.push({ type: 'tool_use', id: c.id, name: c.name, input: c.arguments });
    return {
      id: 'msg_fake',
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: stopOf(turn),
      stop_sequence: null,
      usage: { input_tokens: turn.tokensIn ?? 10, output_tokens: turn.tokensOut ?? 5 },
    };
  },
  errorBody: (type, message) => ({ type: 'error', error: { type, message } }),
};
