import { pieces, sse, textDeltas, type FakeTurn, type Wire } from './script';

// OpenAI-style wires: Chat Completions (OpenAI, DeepSeek, Ollama, llama.cpp, vLLM all speak it)
// and the Responses API. Unnamed `data:` SSE ending in [DONE] for chat; named events for responses.

const chunk = (model: string, delta: unknown, finish: string | null = null) => ({
  id: 'chatcmpl-fake',
  object: 'chat.completion.chunk',
  created: 1_760_000_000,
  model,
  choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
});

const finishOf = (turn: FakeTurn) =>
  turn.stop === 'max_tokens' ? 'length' : turn.stop === 'tool_use' || turn.toolCalls?.length ? 'tool_calls' : 'stop';

export const chatWire: Wire = {
  basePath: '/v1',
  // DeepSeek documents both https://api.deepseek.com and …/v1 as its base URL.
  paths: ['/v1/chat/completions', '/chat/completions'],
  streamStart: (text, model) => [
    sse(undefined, chunk(model, { role: 'assistant', content: '' })),
    sse(undefined, chunk(model, { content: text })),
  ],
  streamTurn(turn, model) {
    const out = [sse(undefined, chunk(model, { role: 'assistant', content: '' }))];
    for (const t of textDeltas(turn)) out.push(sse(undefined, chunk(model, { content: t })));
    (turn.toolCalls ?? []).forEach((c, index) => {
      out.push(
        sse(
          undefined,
          chunk(model, {
            tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }],
          }),
        ),
      );
      for (const part of pieces(JSON.stringify(c.arguments))) {
        out.push(sse(undefined, chunk(model, { tool_calls: [{ index, function: { arguments: part } }] })));
      }
    });
    out.push(sse(undefined, chunk(model, {}, finishOf(turn))));
    const usage = {
      prompt_tokens: turn.tokensIn ?? 10,
      completion_tokens: turn.tokensOut ?? 5,
      total_tokens: (turn.tokensIn ?? 10) + (turn.tokensOut ?? 5),
    };
    out.push(sse(undefined, { ...chunk(model, {}), choices: [], usage }), sse(undefined, '[DONE]'));
    return out;
  },
  jsonTurn(turn, model) {
    const calls = (turn.toolCalls ?? []).map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: JSON.stringify(c.arguments) },
    }));
    return {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 1_760_000_000,
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: turn.text ?? null, ...(calls.length ? { tool_calls: calls } : {}) },
          finish_reason: finishOf(turn),
        },
      ],
      usage: {
        prompt_tokens: turn.tokensIn ?? 10,
        completion_tokens: turn.tokensOut ?? 5,
        total_tokens: (turn.tokensIn ?? 10) + (turn.tokensOut ?? 5),
      },
    };
  },
  errorBody: (type, message) => ({ error: { message, type, param: null, code: type } }),
};

function responseObject(model: string, status: string, output: unknown[], turn?: FakeTurn) {
  return {
    id: 'resp_fake',
    object: 'response',
    created_at: 1_760_000_000,
    model,
    status,
    output,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    usage: turn
      ? {
          input_tokens: turn.tokensIn ?? 10,
          output_tokens: turn.tokensOut ?? 5,
          total_tokens: (turn.tokensIn ?? 10) + (turn.tokensOut ?? 5),
        }
      : null,
  };
}

function outputItems(turn: FakeTurn): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  if (turn.text) {
    items.push({
      type: 'message',
      id: 'msg_fake',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: turn.text, annotations: [] }],
    });
  }
  for (const c of turn.toolCalls ?? []) {
    items.push({
      type: 'function_call',
      id: `fc_${c.id}`,
      call_id: c.id,
      name: c.name,
      arguments: JSON.stringify(c.arguments),
      status: 'completed',
    });
  }
  return items;
}

export const responsesWire: Wire = {
  basePath: '/v1',
  paths: ['/v1/responses'],
  streamStart: (text, model) => {
    let seq = 0;
    const ev = (type: string, data: Record<string, unknown>) => sse(type, { type, sequence_number: seq++, ...data });
    return [
      ev('response.created', { response: responseObject(model, 'in_progress', []) }),
      ev('response.output_text.delta', { item_id: 'msg_fake', output_index: 0, content_index: 0, delta: text }),
    ];
  },
  streamTurn(turn, model) {
    let seq = 0;
    const ev = (type: string, data: Record<string, unknown>) => sse(type, { type, sequence_number: seq++, ...data });
    const out = [ev('response.created', { response: responseObject(model, 'in_progress', []) })];
    outputItems(turn).forEach((item, output_index) => {
      if (item.type === 'message') {
        out.push(
          ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } }),
        );
        for (const t of pieces(turn.text ?? ''))
          out.push(ev('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta: t }));
      } else {
        out.push(
          ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } }),
        );
        for (const part of pieces(String(item.arguments)))
          out.push(ev('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: part }));
        out.push(
          ev('response.function_call_arguments.done', { item_id: item.id, output_index, arguments: item.arguments }),
        );
      }
      out.push(ev('response.output_item.done', { output_index, item }));
    });
    const incomplete = turn.stop === 'max_tokens';
    out.push(
      ev(incomplete ? 'response.incomplete' : 'response.completed', {
        response: responseObject(model, incomplete ? 'incomplete' : 'completed', outputItems(turn), turn),
      }),
    );
    return out;
  },
  jsonTurn: (turn, model) =>
    responseObject(model, turn.stop === 'max_tokens' ? 'incomplete' : 'completed', outputItems(turn), turn),
  errorBody: (type, message) => ({ error: { message, type, param: null, code: type } }),
};
