import type { Part } from '../../src-shared/a2a';
import type { ChatMessage, ToolCall } from './types';

// Placeholders of a rehearsal script, so a scripted answer can say what really happened rather
// than claim it: `{{task}}` is the task's text, `{{tool_results}}` one line per result of the tool
// calls the previous turn made (a delegation names the capsule it went to). `failed_text` replaces
// `text` when every one of those calls failed, `partial_text` when some (not all) of them did.

/** Longest a single tool result is quoted in a scripted answer (the trace keeps it whole). */
const RESULT_QUOTE_CHARS = 2000;

export interface ToolResultLine {
  /** Who the call went to (a delegation's `to`), else the tool's name. */
  target: string;
  ok: boolean;
  content: string;
}

/** The results of the last turn's tool calls, in call order (empty when the last turn made none). */
export function lastToolResults(messages: readonly ChatMessage[]): ToolResultLine[] {
  let i = messages.length - 1;
  const results: Extract<ChatMessage, { role: 'tool' }>[] = [];
  for (; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'tool') break;
    results.unshift(m);
  }
  const asked = messages[i];
  const calls: ToolCall[] = asked?.role === 'assistant' ? (asked.toolCalls ?? []) : [];
  return results.map((r) => {
    const call = calls.find((c) => c.id === r.toolCallId);
    const to = call?.arguments?.to;
    // A "*" left unexpanded reached nobody: name the tool rather than the asterisk.
    return { target: typeof to === 'string' && to && to !== '*' ? to : r.name, ok: !r.isError, content: r.content };
  });
}

/** The images, audio and files of the last turn's tool results (an MCP tool's), in call order. */
export function lastToolParts(messages: readonly ChatMessage[]): Part[] {
  const parts: Part[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'tool') break;
    if (m.parts) parts.unshift(...m.parts);
  }
  return parts;
}

const quote = (s: string) => (s.length > RESULT_QUOTE_CHARS ? `${s.slice(0, RESULT_QUOTE_CHARS)}…` : s);

function describeResults(results: readonly ToolResultLine[]): string {
  if (!results.length) return '(no tool was called)';
  return results.map((r) => `- ${r.target}${r.ok ? ': ' : ' failed: '}${quote(r.content)}`).join('\n');
}

/** A scripted text with its placeholders filled. */
export function fillPlaceholders(text: string, taskText: string, results: readonly ToolResultLine[]): string {
  if (!text.includes('{{')) return text;
  return text.replaceAll('{{task}}', taskText).replaceAll('{{tool_results}}', describeResults(results));
}

/** `{{task}}` in the string arguments of a scripted tool call (e.g. a delegation's text). */
export function fillArguments(args: Record<string, unknown>, taskText: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) out[k] = typeof v === 'string' ? v.replaceAll('{{task}}', taskText) : v;
  return out;
}

/** Whether a scripted turn answers with its `failed_text`: it has one and every previous tool call failed. */
export function answersWithFailedText(turn: { failed_text?: string }, messages: readonly ChatMessage[]): boolean {
  if (turn.failed_text === undefined) return false;
  const results = lastToolResults(messages);
  return results.length > 0 && results.every((r) => !r.ok);
}

/**
 * The text a scripted turn answers with: `failed_text` when every previous tool call failed,
 * `partial_text` when some of them did, else `text`.
 */
export function scriptedText(
  turn: { text?: string; failed_text?: string; partial_text?: string },
  taskText: string,
  messages: readonly ChatMessage[],
): string {
  const results = lastToolResults(messages);
  const partial = turn.partial_text !== undefined && results.some((r) => !r.ok) && results.some((r) => r.ok);
  const chosen = answersWithFailedText(turn, messages)
    ? turn.failed_text!
    : partial
      ? turn.partial_text!
      : (turn.text ?? '');
  return fillPlaceholders(chosen, taskText, results);
}
