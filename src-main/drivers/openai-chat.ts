import OpenAI from 'openai';
import { parseArguments } from './arguments';
import { classifyFailure } from './failure';
import type { HttpDriverOptions } from './gateway';
import { deepseekModelId, planOpenAiModel } from './openai-models';
import { withRetries } from './retry';
import { imageUrl, toolImages } from './tool-images';
import {
  AbortedError,
  InferenceError,
  type ChatMessage,
  type Driver,
  type StopReason,
  type ToolCall,
  type TurnRequest,
  type TurnResult,
} from './types';

// Chat Completions, streamed: OpenAI itself, DeepSeek, and local OpenAI-compatible servers
// (Ollama, llama.cpp server, vLLM). Tool results go back as role "tool" messages, their images in
// a user message after them.

export type ChatKind = 'openai' | 'deepseek' | 'openai-compatible';

export function toChatMessages(
  messages: ChatMessage[],
  system: string | undefined,
  systemRole: 'system' | 'developer',
): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = system ? [{ role: systemRole, content: system }] : [];
  // A tool message holds text only: the images of a turn's results follow its tool messages, in
  // one user message (tool messages must come straight after the assistant's calls).
  let images: { type: 'image_url'; image_url: { url: string } }[] = [];
  const flushImages = () => {
    if (images.length)
      out.push({
        role: 'user',
        content: [{ type: 'text', text: 'The images the tool results above returned:' }, ...images],
      });
    images = [];
  };
  for (const m of messages) {
    if (m.role !== 'tool') flushImages();
    if (m.role === 'user') out.push({ role: 'user', content: m.content });
    else if (m.role === 'tool') {
      out.push({ role: 'tool', tool_call_id: m.toolCallId, content: m.isError ? `error: ${m.content}` : m.content });
      for (const img of toolImages(m.parts)) images.push({ type: 'image_url', image_url: { url: imageUrl(img) } });
    } else {
      const calls = m.toolCalls ?? [];
      out.push({
        role: 'assistant',
        content: m.content || (calls.length ? null : ''),
        ...(calls.length
          ? {
              tool_calls: calls.map((c) => ({
                id: c.id,
                type: 'function',
                function: { name: c.name, arguments: JSON.stringify(c.arguments) },
              })),
            }
          : {}),
      });
    }
  }
  flushImages();
  return out;
}

function stopReasonOf(finish: string | null | undefined, toolCalls: number): StopReason {
  if (finish === 'length') return 'max_tokens';
  if (finish === 'tool_calls' || finish === 'function_call' || toolCalls > 0) return 'tool_use';
  return 'end_turn';
}

export function createChatCompletionsDriver(kind: ChatKind, opts: HttpDriverOptions): Driver {
  const plan =
    kind === 'openai'
      ? planOpenAiModel(opts.model)
      : { model: kind === 'deepseek' ? deepseekModelId(opts.model) : opts.model, reasoning: false };
  const client = openAiClient(opts, kind === 'openai-compatible');

  async function attemptTurn(req: TurnRequest, state: { streamed: boolean }): Promise<TurnResult> {
    if (!client) throw new InferenceError(`${kind}: no API key (set gateway.api_key on the driver artifact)`);
    const maxTokens = req.maxTokens ?? opts.maxTokens;
    const body: Record<string, unknown> = {
      model: plan.model,
      messages: toChatMessages(req.messages, req.system, plan.reasoning ? 'developer' : 'system'),
      stream: true,
      stream_options: { include_usage: true },
    };
    // OpenAI wants max_completion_tokens (reasoning models refuse max_tokens); other servers know max_tokens.
    if (maxTokens !== undefined) body[kind === 'openai' ? 'max_completion_tokens' : 'max_tokens'] = maxTokens;
    if (opts.temperature !== undefined && !plan.reasoning) body.temperature = opts.temperature;
    if ('reasoningEffort' in plan && plan.reasoningEffort) body.reasoning_effort = plan.reasoningEffort;
    if (req.tools.length) {
      body.tools = req.tools.map((t) => ({
        type: 'function',
        function: { name: t.name, description: t.description, parameters: t.parameters },
      }));
    }
    // Structured outputs (OpenAI, Ollama, vLLM, llama.cpp server): not strict, so any schema goes.
    if (req.responseSchema && kind !== 'deepseek') {
      body.response_format = {
        type: 'json_schema',
        json_schema: { name: 'response', schema: req.responseSchema, strict: false },
      };
    }
    const stream = await client.chat.completions.create(body as unknown as OpenAI.ChatCompletionCreateParamsStreaming, {
      signal: req.signal,
    });

    let text = '';
    let tokensIn = 0;
    let tokensOut = 0;
    let finish: string | null | undefined;
    const pending = new Map<number, { id: string; name: string; args: string }>();
    for await (const chunk of stream) {
      if (chunk.usage) {
        tokensIn = chunk.usage.prompt_tokens ?? tokensIn;
        tokensOut = chunk.usage.completion_tokens ?? tokensOut;
      }
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const delta = choice.delta ?? {};
      if (delta.content) {
        text += delta.content;
        state.streamed = true;
        req.onFrame?.({ kind: 'text', text: delta.content });
      }
      for (const tc of delta.tool_calls ?? []) {
        const slot = pending.get(tc.index) ?? { id: '', name: '', args: '' };
        if (tc.id) slot.id = tc.id;
        if (tc.function?.name) slot.name += tc.function.name;
        if (tc.function?.arguments) slot.args += tc.function.arguments;
        pending.set(tc.index, slot);
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    }
    if (req.signal.aborted) throw new AbortedError();
    if (finish === undefined)
      throw new InferenceError(`${kind}: the stream ended without a finish_reason (incomplete reply)`);
    // Arguments stream in pieces; a call is whole only once the choice has finished.
    const toolCalls: ToolCall[] = [...pending.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, p]) => ({ id: p.id || `call_${index}`, name: p.name, arguments: parseArguments(p.args) }));
    for (const call of toolCalls) {
      state.streamed = true;
      req.onFrame?.({ kind: 'tool_call', call });
    }
    return { text, toolCalls, stopReason: stopReasonOf(finish, toolCalls.length), tokensIn, tokensOut };
  }

  return {
    kind,
    model: opts.model,
    // DeepSeek has a JSON mode but takes no schema: the loop offers the contract as a tool instead.
    structuredOutput: kind === 'deepseek' ? 'none' : 'native',
    turn: (req) =>
      withRetries(
        req,
        opts.retry,
        (err) => classifyFailure(kind, err, OpenAI, [opts.apiKey]),
        (state) => attemptTurn(req, state),
      ),
  };
}

/**
 * An OpenAI SDK client that reads nothing from the environment (no OPENAI_API_KEY leaking to a
 * local server) and retries nothing itself. A local server without a key gets no Authorization
 * header at all. Undefined only when a hosted provider has no key.
 */
export function openAiClient(opts: HttpDriverOptions, keyOptional = false): OpenAI | undefined {
  if (!opts.apiKey && !keyOptional) return undefined;
  return new OpenAI({
    apiKey: opts.apiKey || 'unused',
    adminAPIKey: null,
    organization: null,
    project: null,
    baseURL: opts.endpoint.replace(/\/+$/, ''),
    maxRetries: 0,
    logLevel: 'off',
    ...(opts.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
    ...(opts.timeoutMs ? { timeout: opts.timeoutMs } : {}),
  });
}
