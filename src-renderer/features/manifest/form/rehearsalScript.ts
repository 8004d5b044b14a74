import { listAt, textAt, valueAt, type Path } from './formDoc';

// The rehearsal script (inference.rehearsal) as the form shows it: replies, their turns, and each
// turn's tool calls. Reading never throws: a part of the script of an unexpected shape is reported
// as such, and the YAML view stays the place to fix it. Bounds: the editor shows at most
// MAX_REPLIES replies, MAX_TURNS turns a reply and MAX_CALLS tool calls a turn (the rest are kept and
// counted, not drawn), so a generated script of thousands of replies cannot freeze the panel.

export const SCRIPT: Path = ['inference', 'rehearsal'];
export const REPLIES: Path = [...SCRIPT, 'replies'];
export const MAX_REPLIES = 50;
export const MAX_TURNS = 20;
export const MAX_CALLS = 20;

/** Turn keys the structured editor shows; others (artifacts, data, stream, given, …) are kept and named. */
const TURN_KEYS = new Set([
  'text',
  'failed_text',
  'partial_text',
  'tool_calls',
  'error',
  'hang',
  'delay_ms',
  'stop',
  'tokens_in',
  'tokens_out',
]);

export interface ToolCallView {
  name: string;
  /** delegate_task: the capsule name, a peer URL or "*". */
  to: string;
  text: string;
  /** shell: the command line (or an argv list, shown joined). */
  command: string;
  /** Any other tool: its arguments as JSON. */
  argsJson: string;
}

export interface TurnView {
  text: string;
  failedText: string;
  partialText: string;
  error: string;
  hang: boolean;
  delayMs: string;
  stop: string;
  tokensIn: string;
  tokensOut: string;
  calls: ToolCallView[];
  /** How many tool calls there are beyond MAX_CALLS. */
  hiddenCalls: number;
  /** Keys of this turn only the YAML view edits. */
  others: string[];
}

export interface ReplyView {
  when: string;
  messageId: string;
  /** The reply also matches on metadata (edited in YAML). */
  hasMetadata: boolean;
  turns: TurnView[];
  hiddenTurns: number;
  /** The reply is not a map with a list of turns: only the YAML view can fix it. */
  malformed: boolean;
}

export interface ScriptView {
  delayMs: string;
  replies: ReplyView[];
  hiddenReplies: number;
  /** inference.rehearsal or its replies are of an unexpected shape. */
  malformed: boolean;
  recordedFrom: string;
}

const isMapLike = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function readCall(v: unknown): ToolCallView {
  const c = isMapLike(v) ? v : {};
  const args = isMapLike(c.arguments) ? c.arguments : {};
  const command = Array.isArray(args.command) ? args.command.map(String).join(' ') : textAt(args, ['command']);
  return {
    name: textAt(c, ['name']),
    to: textAt(args, ['to']),
    text: textAt(args, ['text']),
    command,
    argsJson: Object.keys(args).length ? JSON.stringify(args, null, 2) : '',
  };
}

function readTurn(v: unknown): TurnView {
  const t = isMapLike(v) ? v : {};
  const calls = listAt(t, ['tool_calls']);
  return {
    text: textAt(t, ['text']),
    failedText: textAt(t, ['failed_text']),
    partialText: textAt(t, ['partial_text']),
    error: textAt(t, ['error']),
    hang: t.hang === true,
    delayMs: textAt(t, ['delay_ms']),
    stop: textAt(t, ['stop']),
    tokensIn: textAt(t, ['tokens_in']),
    tokensOut: textAt(t, ['tokens_out']),
    calls: calls.slice(0, MAX_CALLS).map(readCall),
    hiddenCalls: Math.max(0, calls.length - MAX_CALLS),
    others: Object.keys(t).filter((k) => !TURN_KEYS.has(k)),
  };
}

function readReply(v: unknown): ReplyView {
  if (!isMapLike(v) || !Array.isArray(v.turns))
    return { when: '', messageId: '', hasMetadata: false, turns: [], hiddenTurns: 0, malformed: true };
  return {
    when: textAt(v, ['when']),
    messageId: textAt(v, ['message_id']),
    hasMetadata: v.metadata !== undefined,
    turns: v.turns.slice(0, MAX_TURNS).map(readTurn),
    hiddenTurns: Math.max(0, v.turns.length - MAX_TURNS),
    malformed: false,
  };
}

/** The script of a manifest's data, as the editor draws it. */
export function readScript(data: unknown): ScriptView {
  const script = valueAt(data, SCRIPT);
  const replies = valueAt(data, REPLIES);
  const malformed =
    (script !== undefined && script !== null && !isMapLike(script)) ||
    (replies !== undefined && replies !== null && !Array.isArray(replies));
  const list = Array.isArray(replies) ? replies : [];
  return {
    delayMs: textAt(data, [...SCRIPT, 'delay_ms']),
    replies: list.slice(0, MAX_REPLIES).map(readReply),
    hiddenReplies: Math.max(0, list.length - MAX_REPLIES),
    malformed,
    recordedFrom: textAt(data, [...SCRIPT, 'recorded_from']),
  };
}

export const replyPath = (r: number): Path => [...REPLIES, r];
export const turnsPath = (r: number): Path => [...REPLIES, r, 'turns'];
export const turnPath = (r: number, t: number): Path => [...REPLIES, r, 'turns', t];
export const callsPath = (r: number, t: number): Path => [...turnPath(r, t), 'tool_calls'];
export const callPath = (r: number, t: number, c: number): Path => [...callsPath(r, t), c];

/** A new tool call of a kind, as written into the script. */
export function newCall(kind: 'delegate_task' | 'shell', to: string): Record<string, unknown> {
  return kind === 'delegate_task'
    ? { name: 'delegate_task', arguments: { to, text: '{{task}}' } }
    : { name: 'shell', arguments: { command: 'echo hello' } };
}

/**
 * The `to` choices of a delegation: "*" (every worker this capsule reaches), every other capsule
 * of the formation by name, and the remote agents by URL; a value written that is none of these is
 * kept as a choice, marked.
 */
export function delegationTargets(
  capsuleNames: readonly string[],
  self: string,
  current: string,
  remotes: readonly { url: string; name: string }[] = [],
): { value: string; label: string }[] {
  const out = [
    { value: '*', label: 'Every reachable worker (*)' },
    ...capsuleNames.filter((n) => n !== self).map((n) => ({ value: n, label: n })),
    ...remotes.map((r) => ({ value: r.url, label: `${r.name} (remote agent)` })),
  ];
  if (current && !out.some((o) => o.value === current))
    out.push({ value: current, label: `${current} (not in this formation)` });
  return out;
}
