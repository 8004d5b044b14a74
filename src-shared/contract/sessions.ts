import { command, runsOnRuntime, runsWithSession } from './command';
import { z } from 'zod';
import { runtimeId } from './runtimes';
import type { TaskState } from '../a2a';
import type { SkippedLines, TraceEvent } from '../trace';

// The sessions browser and the cross-capsule timeline, answered from the trace store
// (the SQLite index over every trace.jsonl). Spread into `commands` in commands.ts; the handlers
// live in src-main/workspace/traces.ts.

const sessionId = z.string().regex(/^ses_[0-9a-f]{32}$/, 'a session id (ses_ and 32 hex digits)');
const epochMs = z.number().int().nonnegative();

/** Where a session stands: running, ended (session_end written), or interrupted (its process is gone). */
export type SessionStatusView = 'running' | 'ended' | 'interrupted';

/** Whether the trace store answered, or a slower file scan did (and why). */
export interface TraceStoreState {
  available: boolean;
  message?: string;
  /** Indexing still under way (a big new trace): bytes of the current file done, of its size (0 when not known yet). */
  indexing?: { done: number; total: number };
}

/** One session in the browser's list. */
export interface SessionItemView {
  id: string;
  capsule: string | null;
  /** The formation capsule running it in this Studio, when it is running here. */
  capsuleId?: string;
  status: SessionStatusView;
  startedAt: number | null;
  endedAt: number | null;
  endReason: string | null;
  driver: string | null;
  model: string | null;
  parentId: string | null;
  /** A fork: the recorded session, task and turn it starts from. */
  forkedFrom: { sessionId: string; taskId: string; turn: number } | null;
  tasks: number;
  tokensIn: number;
  tokensOut: number;
  events: number;
  /** Lines of its trace.jsonl the index could not read, by why; absent when every line was read. */
  skipped?: SkippedLines;
  /** Listed for a text search: the newest line that matched, as a snippet around the words (at most ~200 characters). */
  match?: { taskId: string | null; seq: number; type: string; text: string };
}

/** One task of a session, as the index summarises it. */
export interface SessionTaskView {
  id: string;
  ord: number;
  state: TaskState;
  /** It never ended and no live process runs it (killed, crashed): its state is where it stopped. */
  interrupted: boolean;
  text: string | null;
  answer: string | null;
  failure: string | null;
  turns: number;
  tokensIn: number;
  tokensOut: number;
  startedAt: number | null;
  endedAt: number | null;
  durationMs: number | null;
}

/** A trace line with its index in the session (`seq`, 0-based). */
export type SessionEventView = TraceEvent & { seq: number };

/** One page of a session's events. */
export interface SessionEventsPage {
  events: SessionEventView[];
  /** Pass as `after` for the next page; null at the end. */
  next: number | null;
  /** Matching events in the session (known without filters), null when not counted. */
  total: number | null;
  store: TraceStoreState;
}

/** A session whose tasks were too many to draw: the first `shown` of `total` are. */
export interface TimelineTruncation {
  sessionId: string;
  capsule: string;
  shown: number;
  total: number;
}

/** A task drawn as a bar on the timeline. */
export interface TimelineBar {
  sessionId: string;
  capsule: string;
  taskId: string;
  /** Epoch ms. */
  start: number;
  end: number;
  /** True while the task has not ended (end is "now"). */
  open: boolean;
  state: TaskState;
  text: string | null;
  /** The task that caused this one (an orchestrator task whose a2a_send reached it). */
  parentTaskId?: string;
  traceparent?: string;
}

/** List prices of a model in US dollars per million tokens, as the core's price table has them. */
export interface ModelPriceView {
  inPerMTok: number;
  outPerMTok: number;
}

/** The trace lines that make up one task's turns, tool calls and delegations, with its model's price. */
export interface TaskTraceView {
  /** The task's lines of TASK_TRACE_TYPES, in order; at most MAX_TASK_TRACE_LINES. */
  events: SessionEventView[];
  /** True when the task has more such lines than were sent (the first ones are). */
  truncated: boolean;
  model: string | null;
  driver: string | null;
  /** Null when the price table does not know the model (the rehearsal driver, a local model). */
  price: ModelPriceView | null;
  store: TraceStoreState;
}

/** The event types sessions.taskTrace reads: turns, tool calls, delegations and the task's ends. */
export const TASK_TRACE_TYPES = [
  'a2a_task_received',
  'task_start',
  'inference',
  'tool_call',
  'tool_result',
  'delegation_start',
  'delegation_end',
  'a2a_send',
  'input_required',
  'task_failed',
  'task_canceled',
  'task_end',
] as const;
/** The most lines sessions.taskTrace sends for one task (a task of 1,000 turns with a tool call each). */
export const MAX_TASK_TRACE_LINES = 4000;

/** A rehearsal made from a recorded session, saved as a workspace folder. */
export interface RehearsalMade {
  /** The folder written (formation.yaml and one manifest per capsule). */
  dir: string;
  capsules: string[];
  /** What the replay cannot reproduce, in words. */
  notes: string[];
}

export const sessionsCommands = {
  'sessions.rehearse': command<RehearsalMade>()(
    "Makes an offline rehearsal of a recorded session and every capsule that took part (the same turns, tool calls, delegations, tokens), saved in the workspace's rehearsals/ folder; speed scales recorded timings (0: none).",
    z.strictObject({ sessionId, speed: z.number().min(0).max(1_000_000).optional() }),
    runsWithSession('sessionId'),
  ),
  'sessions.list': command<{ sessions: SessionItemView[]; store: TraceStoreState }>()(
    "Every past and running session, newest first, from the trace store; filters by capsule name, status, start time and text. `runtime`: an attached runtime's records (on its host) instead of this Studio's.",
    z.strictObject({
      runtime: runtimeId.optional(),
      capsule: z.string().min(1).max(200).optional(),
      state: z.enum(['running', 'ended', 'interrupted']).optional(),
      since: epochMs.optional(),
      until: epochMs.optional(),
      search: z.string().max(500).optional(),
      limit: z.number().int().positive().max(5000).optional(),
    }),
    runsOnRuntime,
  ),
  'sessions.get': command<{ session: SessionItemView; tasks: SessionTaskView[]; store: TraceStoreState }>()(
    'One session: its summary and its tasks.',
    z.strictObject({ sessionId }),
    runsWithSession('sessionId'),
  ),
  'sessions.events': command<SessionEventsPage>()(
    "One page of a session's events (by `after` cursor, or `offset` when unfiltered), optionally of one task or some event types.",
    z.strictObject({
      sessionId,
      task: z.string().min(1).max(200).optional(),
      types: z.array(z.string().min(1).max(100)).max(50).optional(),
      after: z.number().int().min(-1).optional(),
      offset: z.number().int().nonnegative().optional(),
      limit: z.number().int().positive().max(5000).optional(),
    }),
    runsWithSession('sessionId'),
  ),
  'sessions.taskTrace': command<TaskTraceView>()(
    "One task's turns, tool calls and delegations as trace lines (its first MAX_TASK_TRACE_LINES), with the session's model and that model's price when the price table knows it.",
    z.strictObject({ sessionId, taskId: z.string().min(1).max(200) }),
    runsWithSession('sessionId'),
  ),
  'sessions.timeline': command<{ bars: TimelineBar[]; store: TraceStoreState; truncated?: TimelineTruncation[] }>()(
    'Tasks of several sessions (given, or those overlapping `around`) as bars on one time axis, each linked to the task that caused it.',
    z.strictObject({ sessionIds: z.array(sessionId).min(1).max(50).optional(), around: sessionId.optional() }),
    runsWithSession('sessionIds', 'around'),
  ),
} as const;
