import type { TraceEvent } from './events';

// What the canvas draws of a running formation, read from a session's trace lines: each
// delegate_task call as it goes out and how it ends (a hop on an edge), and each task's current
// turn with the text streaming in. Pure, so the core derives its compact events with it and the
// Studio reads a recorded session's delegations the same way.

/** Where a delegation stands. */
export type DelegationState = 'running' | 'answered' | 'failed' | 'canceled';

/** One delegate_task call of a task, as it stands after a trace line. */
export interface DelegationUpdate {
  /** The delegating task. */
  taskId: string;
  callId: string;
  /** What the model asked for: a capsule name, a URL, or "*" before it expanded. */
  to: string;
  /** The capsule name it reached (a formation capsule, a sub-capsule, or a peer's host). */
  capsule?: string;
  /** The door it was sent to. */
  peerUrl?: string;
  /** The session that ran it, when the runtime started or knows it. */
  childSessionId?: string;
  /** The task it became on the other side, once known. */
  childTaskId?: string;
  state: DelegationState;
  /** The answer or the error, cut to TEXT_CHARS. */
  text?: string;
  /** When the line that set this state was written. */
  ts: string;
}

/** A task's current turn and the tail of the text the model is streaming in it. */
export interface TaskProgress {
  taskId: string;
  /** 0 before the first model turn. */
  turn: number;
  /** The last TEXT_CHARS of this turn's streamed text (or the turn's text once it ended). */
  text: string;
  /** The tool calls the task is waiting on, by name ("delegate_task ×2"). */
  waiting?: string;
}

export const TEXT_CHARS = 300;
/** Delegations and tasks followed at once per session; the oldest are forgotten past this. */
export const MAX_OPEN = 1024;

const cut = (s: string) => (s.length > TEXT_CHARS ? `${s.slice(0, TEXT_CHARS - 1)}…` : s);
const tail = (s: string) => (s.length > TEXT_CHARS ? s.slice(s.length - TEXT_CHARS) : s);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

function stateOfResult(ok: boolean, result: string): DelegationState {
  if (ok) return 'answered';
  return /^(canceled|peer_task_canceled)\b/.test(result) ? 'canceled' : 'failed';
}

/** The state a delegation_end's peer task state ends the delegation in; undefined while it is not final. */
function endedState(state: string): DelegationState | undefined {
  if (state === 'TASK_STATE_COMPLETED') return 'answered';
  if (state === 'TASK_STATE_FAILED' || state === 'TASK_STATE_REJECTED') return 'failed';
  if (state === 'canceled' || state === 'TASK_STATE_CANCELED') return 'canceled';
  return undefined;
}

function remember<K, V>(map: Map<K, V>, key: K, value: V) {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_OPEN) map.delete(map.keys().next().value as K);
}

export interface FlowTracker {
  /** Reads one trace line; returns what it changed (nothing for most lines). */
  push(line: TraceEvent): { delegation?: DelegationUpdate[]; progress?: TaskProgress };
}

/** Follows one session's trace, line by line. Holds only delegations and tasks not yet ended. */
export function createFlowTracker(): FlowTracker {
  const open = new Map<string, DelegationUpdate>();
  /** Delegations their task's end closed: a tool result written after that end tells nothing new. */
  const closed = new Map<string, true>();
  const byDelegationId = new Map<string, string>();
  const tasks = new Map<string, TaskProgress>();
  const keyOf = (taskId: string, callId: string) => `${taskId}\0${callId}`;
  const openOf = (taskId: string) => [...open.values()].filter((d) => d.taskId === taskId);
  const put = (d: DelegationUpdate) => (remember(open, keyOf(d.taskId, d.callId), d), d);
  const progress = (taskId: string, p: Partial<TaskProgress>) => {
    const next = { ...(tasks.get(taskId) ?? { taskId, turn: 0, text: '' }), ...p };
    if (!next.waiting) delete next.waiting;
    remember(tasks, taskId, next);
    return next;
  };

  return {
    push(line) {
      const e = line as TraceEvent & Record<string, unknown>;
      const taskId = str(e.task_id);
      if (!taskId) return {};
      switch (e.event_type) {
        case 'task_start':
          return { progress: progress(taskId, { turn: 0, text: '', waiting: undefined }) };
        case 'frame': {
          const turn = typeof e.turn === 'number' ? e.turn : (tasks.get(taskId)?.turn ?? 0);
          const before = tasks.get(taskId);
          const text = before?.turn === turn ? before.text + str(e.text) : str(e.text);
          return { progress: progress(taskId, { turn, text: tail(text), waiting: undefined }) };
        }
        case 'inference': {
          const calls = Array.isArray(e.tool_calls) ? (e.tool_calls as { name?: unknown }[]) : [];
          const names = new Map<string, number>();
          for (const c of calls) names.set(str(c.name) || 'tool', (names.get(str(c.name) || 'tool') ?? 0) + 1);
          const waiting = [...names].map(([n, k]) => (k > 1 ? `${n} ×${k}` : n)).join(', ');
          const before = tasks.get(taskId);
          const text = str(e.text) || (before && before.turn === e.turn ? before.text : '');
          return {
            progress: progress(taskId, { turn: Number(e.turn) || 0, text: tail(text), waiting: waiting || undefined }),
          };
        }
        case 'breakpoint_hit': {
          // A paused task says where it waits, whatever it streamed before.
          const where =
            e.point === 'edge' ? `the delegation to ${str(e.capsule) || str(e.to)}` : `turn ${Number(e.turn) || '?'}`;
          return { progress: progress(taskId, { text: '', waiting: `a breakpoint before ${where}` }) };
        }
        case 'breakpoint_resumed':
          return { progress: progress(taskId, { waiting: undefined }) };
        case 'tool_call': {
          if (e.name !== 'delegate_task') return {};
          const callId = str(e.call_id);
          if (!callId) return {};
          const to = (e.arguments as { to?: unknown } | null | undefined)?.to;
          return {
            delegation: [put({ taskId, callId, to: typeof to === 'string' ? to : '?', state: 'running', ts: e.ts })],
          };
        }
        case 'delegation_start': {
          const callId = str(e.call_id);
          const to = str(e.to);
          // Older traces carry no call_id: the first open call of the task to the same place.
          const d = callId
            ? open.get(keyOf(taskId, callId))
            : openOf(taskId).find((x) => x.to === to && !x.peerUrl && !x.capsule);
          if (!d) return {};
          if (e.delegation_id) remember(byDelegationId, str(e.delegation_id), keyOf(d.taskId, d.callId));
          const next: DelegationUpdate = {
            ...d,
            ...(e.capsule ? { capsule: str(e.capsule) } : {}),
            ...(e.peer_url ? { peerUrl: str(e.peer_url) } : {}),
            ...(e.child_session_id ? { childSessionId: str(e.child_session_id) } : {}),
          };
          return { delegation: [put(next)] };
        }
        case 'delegation_end': {
          const key = e.call_id ? keyOf(taskId, str(e.call_id)) : byDelegationId.get(str(e.delegation_id));
          const d = key ? open.get(key) : undefined;
          if (!d) return {};
          // The worker's task ended: the delegation is answered (or failed, canceled) now, even while
          // its result waits for the task's other calls (tool results are written together).
          const ended = endedState(str(e.state));
          const next: DelegationUpdate = {
            ...d,
            ...(e.peer_task_id ? { childTaskId: str(e.peer_task_id) } : {}),
            ...(ended && d.state !== 'canceled' ? { state: ended, ts: e.ts } : {}),
          };
          return { delegation: [put(next)] };
        }
        case 'tool_result': {
          if (e.name !== 'delegate_task') return {};
          const key = keyOf(taskId, str(e.call_id));
          // A canceled task's calls write their results after its end: the delegation already
          // ended with it (answered, or canceled), under the name of the worker it went to.
          if (!open.has(key) && closed.has(key)) return {};
          const d = open.get(key) ?? { taskId, callId: str(e.call_id), to: '?', state: 'running' as const, ts: e.ts };
          open.delete(key);
          const result = str(e.result);
          // A delegation its task's cancel ended stays canceled, whatever its result says.
          const state = d.state === 'canceled' ? 'canceled' : stateOfResult(e.ok === true, result);
          return { delegation: [{ ...d, state, text: cut(result), ts: e.ts }] };
        }
        case 'task_end':
        case 'task_canceled':
        case 'task_failed': {
          tasks.delete(taskId);
          // Whatever the task still had out ends with it.
          const left = openOf(taskId);
          if (!left.length) return {};
          const canceled = e.event_type === 'task_canceled' || e.state === 'TASK_STATE_CANCELED';
          const ended = left.map((d): DelegationUpdate => {
            open.delete(keyOf(d.taskId, d.callId));
            remember(closed, keyOf(d.taskId, d.callId), true);
            // Its worker had answered: that stays so, whatever ended the delegating task.
            if (d.state === 'answered') return d;
            return {
              ...d,
              state: canceled || d.state === 'canceled' ? 'canceled' : 'failed',
              text: d.text ?? (canceled ? 'the delegating task was canceled' : 'the delegating task ended first'),
              ts: e.ts,
            };
          });
          return { delegation: ended };
        }
        default:
          return {};
      }
    },
  };
}

/** Every delegation of a run of trace lines, as each last stood (recorded sessions, tests). */
export function delegationsOf(lines: Iterable<TraceEvent>): DelegationUpdate[] {
  const tracker = createFlowTracker();
  const all = new Map<string, DelegationUpdate>();
  for (const line of lines) for (const d of tracker.push(line).delegation ?? []) all.set(`${d.taskId}\0${d.callId}`, d);
  return [...all.values()];
}
