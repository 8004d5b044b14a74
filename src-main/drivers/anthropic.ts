import Anthropic from '@anthropic-ai/sdk';
import { parseArguments } from './arguments';
import { classifyFailure } from './failure';
import type { HttpDriverOptions } from './gateway';
import { withRetries } from './retry';
import { toolImages } from './tool-images';
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

// Anthropic Messages API, streamed. Tool results go back as tool_result blocks in the user turn
// that follows the assistant's tool_use blocks, with their images as image blocks.

export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;

type Block = Record<string, unknown>;
type Param = { role: 'user' | 'assistant'; content: Block[] };

/** Our conversation in Messages API form: consecutive same-role turns merged, empty turns dropped. */
export function toAnthropicMessages(messages: ChatMessage[]): Param[] {
  const out: Param[] = [];
  const push = (role: Param['role'], blocks: Block[]) => {
    if (!blocks.length) return;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === 'user') push('user', [{ type: 'text', text: m.content }]);
    else if (m.role === 'tool') {
      // A result with images (an MCP tool's) is a list of blocks: its text, then each image.
      const images = toolImages(m.parts).map((img) => ({
        type: 'image',
        source: img.url ? { type: 'url', url: img.url } : { type: 'base64', media_type: img.mediaType, data: img.data },
      }));
      const content = images.length ? [{ type: 'text', text: m.content }, ...images] : m.content;
      push('user', [
        { type: 'tool_result', tool_use_id: m.toolCallId, content, ...(m.isError ? { is_error: true } : {}) },
      ]);
    } else {
      const blocks: Block[] = m.content ? [{ type: 'text', text: m.content }] : [];
      for (const c of m.toolCalls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.arguments });
      push('assistant', blocks);
    }
  }
  return out;
}

function stopReasonOf(reason: string | null | undefined, toolCalls: number): StopReason {
  if (reason === 'max_tokens' || reason === 'model_context_window_exceeded') return 'max_tokens';
  if (reason === 'tool_use' || toolCalls > 0) return 'tool_use';
  return 'end_turn';
}

export function createAnthropicDriver(opts: HttpDriverOptions): Driver {
  const baseURL = opts.endpoint.replace(/\/+$/, '').replace(/\/v1$/, '');
  // Every credential source besides the manifest's key is switched off explicitly, so the SDK never
  // falls back to environment variables or profiles on disk.
  const client = opts.apiKey
    ? new Anthropic({
        apiKey: opts.apiKey,
        authToken: null,
        baseURL,
        maxRetries: 0,
        logLevel: 'off',
        ...(opts.timeoutMs ? { timeout: opts.timeoutMs } : {}),
      })
    : undefined;

  async function attemptTurn(req: TurnRequest, state: { streamed: boolean }): Promise<TurnResult> {
    if (!client) throw new InferenceError('anthropic: no API key (set gateway.api_key on the driver artifact)');
    const body: Record<string, unknown> = {
      model: opts.model,
      max_tokens: req.maxTokens ?? opts.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
      messages: toAnthropicMessages(req.messages),
      stream: true,
    };
    if (req.system) body.system = req.system;
    if (opts.temperature !== undefined) body.temperature = opts.temperature;
    if (req.tools.length)
      body.tools = req.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
    // Structured outputs: the final text is JSON of this shape (the loop still checks it).
    if (req.responseSchema) body.output_config = { format: { type: 'json_schema', schema: req.responseSchema } };
    const stream = await client.messages.create(body as unknown as Anthropic.MessageCreateParamsStreaming, {
      signal: req.signal,
    });

    let text = '';
    let tokensIn = 0;
    let tokensOut = 0;
    let stop: string | null | undefined;
    const toolCalls: ToolCall[] = [];
    const open = new Map<number, { id: string; name: string; json: string }>();
    for await (const ev of stream) {
      if (ev.type === 'message_start') {
        const u = ev.message.usage;
        tokensIn = (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
        tokensOut = u.output_tokens ?? 0;
      } else if (ev.type === 'content_block_start') {
        if (ev.content_block.type === 'tool_use')
          open.set(ev.index, { id: ev.content_block.id, name: ev.content_block.name, json: '' });
      } else if (ev.type === 'content_block_delta') {
        if (ev.delta.type === 'text_delta') {
          text += ev.delta.text;
          state.streamed = true;
          req.onFrame?.({ kind: 'text', text: ev.delta.text });
        } else if (ev.delta.type === 'input_json_delta') {
          const call = open.get(ev.index);
          if (call) call.json += ev.delta.partial_json;
        }
      } else if (ev.type === 'content_block_stop') {
        const call = open.get(ev.index);
        if (call) {
          open.delete(ev.index);
          const done: ToolCall = { id: call.id, name: call.name, arguments: parseArguments(call.json) };
          toolCalls.push(done);
          state.streamed = true;
          req.onFrame?.({ kind: 'tool_call', call: done });
        }
      } else if (ev.type === 'message_delta') {
        stop = ev.delta.stop_reason;
        if (ev.usage.output_tokens != null) tokensOut = ev.usage.output_tokens;
        if (ev.usage.input_tokens != null) {
          tokensIn =
            ev.usage.input_tokens +
            (ev.usage.cache_creation_input_tokens ?? 0) +
            (ev.usage.cache_read_input_tokens ?? 0);
        }
      }
    }
    // The SDK ends an aborted stream quietly; a cut-off turn must not look finished.
    if (req.signal.aborted) throw new AbortedError();
    if (stop === undefined)
      throw new InferenceError('anthropic: the stream ended before message_delta (incomplete reply)');
    return { text, toolCalls, stopReason: stopReasonOf(stop, toolCalls.length), tokensIn, tokensOut };
  }

  return {
    kind: 'anthropic',
    model: opts.model,
    structuredOutput: 'native',
    turn: (req) =>
      withRetries(
        req,
        opts.retry,
        (err) => classifyFailure('anthropic', err, Anthropic, [opts.apiKey]),
        (state) => attemptTurn(req, state),
      ),
  };
}
