import type { TaskState } from '../../../src-shared/a2a';
import type { ModelPriceView } from '../../../src-shared/contract';
import { delegationsOf, type DelegationState, type TraceEvent } from '../../../src-shared/trace';
import { costUsd } from './figures';

// A task's turns and delegations, read from its trace lines (sessions.taskTrace). An inference line
// is written when the model answered: its turn started `duration_ms` before its `ts`; the turn's
// tool calls follow it, each timed from its tool_call to its tool_result.

export interface ToolCallView {
  callId: string;
  name: string;
  /** Undefined while the call runs. */
  ok?: boolean;
  durationMs?: number;
}

export interface TurnView {
  turn: number;
  /** From the task's arrival to the turn's start (ms); null when the arrival is not in the lines. */
  offsetMs: number | null;
  /** The model's time for the turn. */
  modelMs: number;
  /** From the model's answer to the turn's last tool result; null without tool calls or before one ended. */
  toolsMs: number | null;
  tokensIn: number;
  tokensOut: number;
  /** Null when the model's price is not known. */
  costUsd: number | null;
  stopReason: string;
  /** What the model said in the turn (its first TURN_TEXT_CHARS characters). */
  text: string;
  tools: ToolCallView[];
}

/** Characters of a turn's text kept for the inspector (the Live trace and Sessions have the whole line). */
export const TURN_TEXT_CHARS = 4000;

export interface TaskFigures {
  turns: TurnView[];
  tokensIn: number;
  tokensOut: number;
  modelMs: number;
  /** Null when the model's price is not known. */
  costUsd: number | null;
  /** The task's wall time: task_end's duration, else its arrival to its last line; null with no lines. */
  wallMs: number | null;
}

type Line = TraceEvent & Record<string, unknown>;
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
const time = (e: Line): number => Date.parse(e.ts);

export function taskFigures(events: readonly TraceEvent[], price: ModelPriceView | null): TaskFigures {
  const lines = events as readonly Line[];
  const arrival = lines.find((e) => e.event_type === 'a2a_task_received' || e.event_type === 'task_start');
  const t0 = arrival ? time(arrival) : NaN;
  const turns: TurnView[] = [];
  const calls = new Map<string, { view: ToolCallView; at: number; turn: TurnView }>();
  let current: TurnView | undefined;
  let answeredAt = NaN;
  let wallMs: number | null = null;
  for (const e of lines) {
    if (e.event_type === 'inference') {
      const modelMs = num(e.duration_ms);
      const end = time(e);
      const tokensIn = num(e.tokens_in);
      const tokensOut = num(e.tokens_out);
      current = {
        turn: num(e.turn) || turns.length + 1,
        offsetMs: Number.isFinite(t0) && Number.isFinite(end) ? Math.max(0, end - modelMs - t0) : null,
        modelMs,
        toolsMs: null,
        tokensIn,
        tokensOut,
        costUsd: costUsd(price, tokensIn, tokensOut),
        stopReason: str(e.stop_reason) ?? '',
        text: (str(e.text) ?? '').slice(0, TURN_TEXT_CHARS),
        tools: [],
      };
      answeredAt = end;
      turns.push(current);
    } else if (e.event_type === 'tool_call' && current) {
      const view: ToolCallView = { callId: String(e.call_id ?? ''), name: String(e.name ?? '?') };
      current.tools.push(view);
      calls.set(view.callId, { view, at: time(e), turn: current });
    } else if (e.event_type === 'tool_result') {
      const call = calls.get(String(e.call_id ?? ''));
      if (!call) continue;
      call.view.ok = e.ok === true;
      call.view.durationMs = Math.max(0, time(e) - call.at);
      const since = time(e) - (Number.isFinite(answeredAt) ? answeredAt : call.at);
      call.turn.toolsMs = Math.max(call.turn.toolsMs ?? 0, since);
    } else if (e.event_type === 'task_end') {
      wallMs = num(e.duration_ms) || null;
    }
  }
  if (wallMs === null && lines.length && Number.isFinite(t0)) wallMs = Math.max(0, time(lines[lines.length - 1]) - t0);
  const sum = (f: (t: TurnView) => number) => turns.reduce((n, t) => n + f(t), 0);
  const tokensIn = sum((t) => t.tokensIn);
  const tokensOut = sum((t) => t.tokensOut);
  return {
    turns,
    tokensIn,
    tokensOut,
    modelMs: sum((t) => t.modelMs),
    costUsd: costUsd(price, tokensIn, tokensOut),
    wallMs,
  };
}

/** One delegate_task call of a task, with what is known of the child task it made. */
export interface DelegationView {
  callId: string;
  /** What the model asked for (a capsule name, a URL, "*"). */
  to: string;
  /** The capsule that took it, once known. */
  capsule?: string;
  childSessionId?: string;
  /** The child task, once its door answered the send. */
  peerTaskId?: string;
  /** Where it stands, as the canvas and the console tell it (`delegationsOf`, src-shared/trace/flow.ts). */
  state: DelegationState;
  /** How the child task ended, when the delegation saw it end. */
  peerState?: TaskState;
  /** The tool's error text when it failed (cut to 300 characters). */
  error?: string;
}

const ERROR_CHARS = 300;

/**
 * The delegations of a task, in call order, joined from delegate_task's lines. Where each stands is
 * the shared reading of the trace, the one the canvas and the console fold from the core's events:
 * a delegation is answered once its worker's task ended, though its tool result waits for the
 * task's other calls (a sibling paused at a breakpoint, a slow one).
 */
export function taskDelegations(events: readonly TraceEvent[]): DelegationView[] {
  const out: DelegationView[] = [];
  const byCall = new Map<string, DelegationView>();
  const byDelegation = new Map<string, DelegationView>();
  const urls = new Map<DelegationView, string>();
  const started = new Set<DelegationView>();
  for (const e of events as readonly Line[]) {
    if (e.event_type === 'tool_call' && e.name === 'delegate_task') {
      const d: DelegationView = {
        callId: String(e.call_id ?? ''),
        to: str((e.arguments as { to?: unknown } | null)?.to) ?? '?',
        state: 'running',
      };
      out.push(d);
      byCall.set(d.callId, d);
    } else if (e.event_type === 'delegation_start') {
      // Older traces name no call: the first delegation to the same target not started yet.
      const d = byCall.get(String(e.call_id ?? '')) ?? out.find((x) => !started.has(x) && x.to === e.to);
      if (!d) continue;
      started.add(d);
      d.capsule = str(e.capsule) ?? d.capsule;
      d.childSessionId = str(e.child_session_id) ?? d.childSessionId;
      if (str(e.delegation_id)) byDelegation.set(String(e.delegation_id), d);
      if (str(e.peer_url)) urls.set(d, String(e.peer_url));
    } else if (e.event_type === 'a2a_send') {
      // The send's answer names the child task while it still runs.
      const d = out.find((x) => !x.peerTaskId && urls.get(x) === e.peer_url);
      if (d && str(e.peer_task_id)) d.peerTaskId = String(e.peer_task_id);
    } else if (e.event_type === 'delegation_end') {
      const d = byDelegation.get(String(e.delegation_id ?? ''));
      if (!d) continue;
      d.peerTaskId = str(e.peer_task_id) ?? d.peerTaskId;
      if (str(e.state)) d.peerState = e.state as TaskState;
    } else if (e.event_type === 'tool_result' && e.name === 'delegate_task') {
      const d = byCall.get(String(e.call_id ?? ''));
      if (!d) continue;
      d.peerTaskId = str(e.peer_task_id) ?? d.peerTaskId;
      d.childSessionId = str(e.child_session_id) ?? d.childSessionId;
      d.capsule = str(e.capsule) ?? d.capsule;
      // The shared reading below decides when it knows the call; a line it cannot place keeps this.
      d.state = e.ok ? 'answered' : 'failed';
      if (!e.ok) d.error = String(e.result ?? '').slice(0, ERROR_CHARS);
    }
  }
  const states = new Map(delegationsOf(events).map((d) => [d.callId, d.state]));
  for (const d of out) d.state = states.get(d.callId) ?? d.state;
  return out;
}

/** One step of a task's life (arrived, started, asked for input, ended …), from its trace lines. */
export interface HistoryStep {
  /** From the task's arrival (ms); null when the arrival is not in the lines. */
  offsetMs: number | null;
  ts: string;
  what: string;
}

const STEP: Record<string, (e: Line) => string> = {
  a2a_task_received: (e) => (e.peer ? `received from ${String(e.peer)}` : 'received'),
  task_start: () => 'started',
  input_required: (e) => `asked for input: ${String(e.question ?? '').slice(0, 200)}`,
  breakpoint_hit: (e) =>
    `paused at a breakpoint before ${e.point === 'edge' ? `the delegation to ${String(e.capsule || e.to || '?')}` : `turn ${num(e.turn)}`}`,
  breakpoint_resumed: (e) =>
    `${e.by === 'timeout' ? 'breakpoint timed out: went on' : `resumed: ${String(e.action ?? '?')}`}${e.edited ? ' (message edited)' : ''}`,
  task_failed: (e) => `failed (${String(e.cause ?? '')}): ${String(e.message ?? '').slice(0, 200)}`,
  task_canceled: (e) => `canceled by ${String(e.by ?? '?')}`,
  task_end: (e) =>
    `ended ${String(e.state ?? '').replace('TASK_STATE_', '')}${e.turns !== undefined ? ` after ${num(e.turns)} turn${num(e.turns) === 1 ? '' : 's'}` : ''}`,
};

/** The task's steps in order: when it arrived, started, waited for input, failed or ended. */
export function taskHistory(events: readonly TraceEvent[]): HistoryStep[] {
  const lines = events as readonly Line[];
  const arrival = lines.find((e) => e.event_type === 'a2a_task_received' || e.event_type === 'task_start');
  const t0 = arrival ? time(arrival) : NaN;
  return lines
    .filter((e) => STEP[e.event_type])
    .map((e) => ({
      offsetMs: Number.isFinite(t0) ? Math.max(0, time(e) - t0) : null,
      ts: e.ts,
      what: STEP[e.event_type](e),
    }));
}
