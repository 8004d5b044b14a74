import OpenAI from 'openai';
import { parseArguments } from './arguments';
import { maskSecrets } from '../trace';
import { classifyFailure } from './failure';
import type { HttpDriverOptions } from './gateway';
import { openAiClient } from './openai-chat';
import { planOpenAiModel } from './openai-models';
import { withRetries } from './retry';
import { imageUrl, toolImages } from './tool-images';
import {
  AbortedError,
  InferenceError,
  type ChatMessage,
  type Driver,
  type ToolCall,
  type TurnRequest,
  type TurnResult,
} from './types';

// OpenAI Responses API, streamed, for the models Chat Completions does not serve (the -pro and
// codex families). Stateless (store: false): the whole conversation goes in `input` each turn, as
// with every other driver, so the loop's conversation stays the one source of truth.

export function toResponsesInput(messages: ChatMessage[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const m of messages) {
    if (m.role === 'user') out.push({ role: 'user', content: m.content });
    else if (m.role === 'tool') {
      const text = m.isError ? `error: ${m.content}` : m.content;
      // A result with images is a list of inputs: its text, then each image.
      const images = toolImages(m.parts).map((img) => ({ type: 'input_image', image_url: imageUrl(img) }));
      out.push({
        type: 'function_call_output',
        call_id: m.toolCallId,
        output: images.length ? [{ type: 'input_text', text }, ...images] : text,
      });
    } else {
      if (m.content) out.push({ role: 'assistant', content: m.content });
      for (const c of m.toolCalls ?? [])
        out.push({ type: 'function_call', call_id: c.id, name: c.name, arguments: JSON.stringify(c.arguments) });
    }
  }
  return out;
}

export function createResponsesDriver(opts: HttpDriverOptions): Driver {
  const plan = planOpenAiModel(opts.model);
  const client = openAiClient(opts);

  async function attemptTurn(req: TurnRequest, state: { streamed: boolean }): Promise<TurnResult> {
    if (!client) throw new InferenceError('openai: no API key (set gateway.api_key on the driver artifact)');
    const maxTokens = req.maxTokens ?? opts.maxTokens;
    const body: Record<string, unknown> = {
      model: plan.model,
      input: toResponsesInput(req.messages),
      stream: true,
      store: false,
    };
    if (req.system) body.instructions = req.system;
    if (maxTokens !== undefined) body.max_output_tokens = maxTokens;
    if (plan.reasoningEffort) body.reasoning = { effort: plan.reasoningEffort };
    if (opts.temperature !== undefined && !plan.reasoning) body.temperature = opts.temperature;
    if (req.tools.length) {
      body.tools = req.tools.map((t) => ({
        type: 'function',
        name: t.name,
        description: t.description,
        parameters: t.parameters,
        strict: false,
      }));
    }
    if (req.responseSchema)
      body.text = { format: { type: 'json_schema', name: 'response', schema: req.responseSchema, strict: false } };
    const stream = await client.responses.create(body as unknown as OpenAI.Responses.ResponseCreateParamsStreaming, {
      signal: req.signal,
    });

    let text = '';
    let tokensIn = 0;
    let tokensOut = 0;
    let ended: 'completed' | 'incomplete' | undefined;
    let cutOff = false;
    const toolCalls: ToolCall[] = [];
    for await (const ev of stream) {
      if (ev.type === 'response.output_text.delta') {
        text += ev.delta;
        state.streamed = true;
        req.onFrame?.({ kind: 'text', text: ev.delta });
      } else if (ev.type === 'response.output_item.done' && ev.item.type === 'function_call') {
        const call: ToolCall = {
          id: ev.item.call_id,
          name: ev.item.name,
          arguments: parseArguments(ev.item.arguments),
        };
        toolCalls.push(call);
        state.streamed = true;
        req.onFrame?.({ kind: 'tool_call', call });
      } else if (ev.type === 'response.completed' || ev.type === 'response.incomplete') {
        ended = ev.type === 'response.completed' ? 'completed' : 'incomplete';
        cutOff = ev.response.incomplete_details?.reason === 'max_output_tokens';
        tokensIn = ev.response.usage?.input_tokens ?? 0;
        tokensOut = ev.response.usage?.output_tokens ?? 0;
      } else if (ev.type === 'response.failed') {
        const e = ev.response.error;
        throw new InferenceError(
          maskSecrets(
            `openai: response failed${e ? ` — ${e.code}: ${e.message}` : ''}`,
            opts.apiKey ? [opts.apiKey] : [],
          ),
        );
      }
    }
    if (req.signal.aborted) throw new AbortedError();
    if (!ended) throw new InferenceError('openai: the stream ended before response.completed (incomplete reply)');
    const stopReason = cutOff ? 'max_tokens' : toolCalls.length ? 'tool_use' : 'end_turn';
    return { text, toolCalls, stopReason, tokensIn, tokensOut };
  }

  return {
    kind: 'openai',
    model: opts.model,
    structuredOutput: 'native',
    turn: (req) =>
      withRetries(
        req,
        opts.retry,
        (err) => classifyFailure('openai', err, OpenAI, [opts.apiKey]),
        (state) => attemptTurn(req, state),
      ),
  };
}
