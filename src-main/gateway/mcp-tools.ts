import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Message, Part, Task } from '../../src-shared/a2a';
import { newMessageId } from '../../src-shared/ids';
import { acceptsProblems, MAX_PARAMS_DEPTH } from '../door';
import { nestedDeeperThan } from '../trace';
import { runTask, type TaskOutcome } from './mcp-task';
import type { ResolvedCapsule } from './types';

// A capsule as an MCP tool. Its input is the capsule's `accepts` contract when that is an object
// schema (the arguments are the task's data part), `{ data }` around any other contract, and
// `{ text }` (the task in words) without one. Its output schema is `responds` when that describes
// an object (MCP's structuredContent is always an object). Names follow what MCP clients hand on
// to model providers: [A-Za-z0-9_-], at most 64 characters (a subset of MCP's own rule).

export const MAX_TOOL_NAME = 64;
/** Arguments larger than this (as JSON) are refused before any task starts. */
export const MAX_ARGUMENT_BYTES = 256 * 1024;
/** The door's params depth, less the levels the message around a data part takes. */
export const MAX_ARGUMENT_DEPTH = MAX_PARAMS_DEPTH - 5;

export type InputShape = 'object' | 'wrapped' | 'text';

export interface CapsuleTool {
  /** The exposure's capsule name (what its token opens). */
  capsule: string;
  tool: Tool;
  input: InputShape;
  cap: ResolvedCapsule;
}

const isObjectSchema = (s: Record<string, unknown> | undefined): s is Record<string, unknown> =>
  !!s && s.type === 'object';

/** Tool names for capsule names, unambiguous within one list (a clash takes a number). */
export function toolNames(capsules: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<string>();
  for (const capsule of capsules) {
    const base = (capsule.replace(/[^A-Za-z0-9_-]/g, '_') || 'capsule').slice(0, MAX_TOOL_NAME);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base.slice(0, MAX_TOOL_NAME - String(n).length - 1)}_${n}`;
    taken.add(name);
    out.set(capsule, name);
  }
  return out;
}

export function capsuleTool(capsule: string, name: string, cap: ResolvedCapsule): CapsuleTool {
  const accepts = cap.accepts ?? {};
  const input: InputShape = !cap.accepts ? 'text' : isObjectSchema(accepts) ? 'object' : 'wrapped';
  const inputSchema =
    input === 'object'
      ? (accepts as Tool['inputSchema'])
      : input === 'wrapped'
        ? { type: 'object' as const, properties: { data: accepts }, required: ['data'], additionalProperties: false }
        : {
            type: 'object' as const,
            properties: { text: { type: 'string', description: 'The task, in words.' } },
            required: ['text'],
            additionalProperties: false,
          };
  const description = (cap.description ?? cap.card.description) || `The capsule ${capsule}.`;
  const tool: Tool = {
    name,
    title: cap.card.name,
    description: `${description} (A Capsule Studio capsule: each call runs one task; canceling the call cancels the task.)`,
    inputSchema,
    ...(isObjectSchema(cap.responds) ? { outputSchema: cap.responds as Tool['outputSchema'] } : {}),
  };
  return { capsule, tool, input, cap };
}

const textResult = (text: string, isError = false): CallToolResult => ({
  content: [{ type: 'text', text }],
  ...(isError ? { isError: true } : {}),
});

/** The task's message, or the refusal of arguments that miss the tool's input schema. */
export function messageFor(
  t: CapsuleTool,
  args: Record<string, unknown> | undefined,
): { message: Message } | { refused: CallToolResult } {
  const r = checkedParts(t, args);
  return 'refused' in r ? r : { message: { messageId: newMessageId(), role: 'ROLE_USER', parts: r.parts } };
}

function checkedParts(
  t: CapsuleTool,
  args: Record<string, unknown> | undefined,
): { parts: Part[] } | { refused: CallToolResult } {
  const refuse = (why: string) => ({ refused: textResult(`Invalid arguments for ${t.tool.name}: ${why}`, true) });
  const a = args ?? {};
  // Checked without recursion first: everything after this walks the value recursively.
  if (nestedDeeperThan(a, MAX_ARGUMENT_DEPTH))
    return refuse(`nested deeper than ${MAX_ARGUMENT_DEPTH} levels of objects and arrays.`);
  if (Buffer.byteLength(JSON.stringify(a)) > MAX_ARGUMENT_BYTES)
    return refuse(`larger than ${MAX_ARGUMENT_BYTES} bytes as JSON.`);
  if (t.input === 'text') {
    const extra = Object.keys(a).filter((k) => k !== 'text');
    if (typeof a.text !== 'string' || !a.text.trim()) return refuse('text: a non-empty string is required.');
    if (extra.length) return refuse(`${extra[0]}: is not allowed (this tool takes only text).`);
    return { parts: [{ text: a.text }] };
  }
  const data = t.input === 'object' ? a : a.data;
  const problems =
    t.input === 'wrapped' && !('data' in a)
      ? [{ field: '', message: 'is required' }]
      : acceptsProblems(t.cap.accepts!, data);
  if (problems.length) {
    const where = (f: string) => (t.input === 'wrapped' ? `data${f ? `.${f}` : ''}` : f || '(arguments)');
    return refuse(problems.map((p) => `${where(p.field)}: ${p.message}`).join('; '));
  }
  return { parts: [{ data, mediaType: 'application/json' }] };
}

const textOf = (parts: readonly Part[]) =>
  parts
    .map((p) =>
      typeof p.text === 'string'
        ? p.text
        : p.raw !== undefined || p.url !== undefined
          ? `[file ${p.filename ?? ''} ${p.mediaType ?? ''} not passed on]`.replace(/\s+/g, ' ')
          : undefined,
    )
    .filter((x): x is string => x !== undefined)
    .join('\n');

/** The answer of a task, or a message, as tool content; structuredContent when `responds` describes an object. */
export function resultOf(t: CapsuleTool, outcome: TaskOutcome): CallToolResult {
  if (outcome.kind === 'refused') return textResult(`The capsule did not take the task: ${outcome.message}`, true);
  const parts = outcome.kind === 'message' ? outcome.message.parts : answerParts(outcome.task);
  if (outcome.kind === 'task') {
    const { state, message } = outcome.task.status;
    const why = message ? textOf(message.parts) : '';
    if (state === 'TASK_STATE_CANCELED')
      return textResult(`The task ${outcome.task.id} was canceled${why ? `: ${why}` : '.'}`, true);
    if (state !== 'TASK_STATE_COMPLETED')
      return textResult(
        `The task ${outcome.task.id} ended ${state.replace('TASK_STATE_', '').toLowerCase()}${why ? `: ${why}` : '.'}`,
        true,
      );
  }
  const text = textOf(parts);
  const data = parts.find((p) => p.data !== undefined)?.data;
  const structured = data !== undefined ? data : parseObject(text);
  if (t.tool.outputSchema) {
    if (!structured || typeof structured !== 'object' || Array.isArray(structured))
      return textResult(
        `The capsule answered without the structured answer its responds contract promises:\n${text}`,
        true,
      );
    return {
      content: [{ type: 'text', text: text || JSON.stringify(structured) }],
      structuredContent: structured as Record<string, unknown>,
    };
  }
  return textResult(text || (data !== undefined ? JSON.stringify(data) : ''));
}

function answerParts(task: Task): Part[] {
  const fromArtifacts = (task.artifacts ?? []).flatMap((a) => a.parts);
  return fromArtifacts.length ? fromArtifacts : (task.status.message?.parts ?? []);
}

function parseObject(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface CallContext {
  signal: AbortSignal;
  maxWaitMs: number;
  progress?(step: number, message: string): void;
}

/** One tools/call: arguments checked, the task run to its end (or canceled with the call), the answer as tool content. */
export async function callCapsuleTool(
  t: CapsuleTool,
  args: Record<string, unknown> | undefined,
  ctx: CallContext,
): Promise<CallToolResult> {
  const checked = messageFor(t, args);
  if ('refused' in checked) return checked.refused;
  let step = 0;
  const outcome = await runTask(t.cap, checked.message, {
    signal: ctx.signal,
    maxWaitMs: ctx.maxWaitMs,
    onProgress: (task) => {
      const said = task.status.message ? textOf(task.status.message.parts) : '';
      ctx.progress?.(
        ++step,
        `${task.status.state.replace('TASK_STATE_', '').toLowerCase()}${said ? `: ${said.slice(0, 200)}` : ''}`,
      );
    },
  });
  return resultOf(t, outcome);
}
