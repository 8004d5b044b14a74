import {
  MAX_REPLAY_BYTES,
  MAX_REPLAY_LINE_BYTES,
  MAX_REPLAY_LINES,
  type ReplayLine,
  type ReplayRun,
  type ReplayStep,
  type ReplayTaskState,
} from '../../src-shared/contract';
import { createFlowTracker, type TraceEvent } from '../../src-shared/trace';
import type { TaskState } from '../../src-shared/a2a';
import { sliceClock, streamTraceLines, type TraceLine } from '../trace';
import { gatherRun } from './gather';

// A recorded formation run read for the Studio's replay: the sessions the rehearsal walk finds
// (the session asked for and every session its delegations reached), each read through the same
// flow tracker that derives the live delegation.updated / task.progressed events, merged in time
// order. Only the run's own tasks count: a peer that served other callers shows only this run.

/** Bytes read of one session's trace: a bigger file is read up to here (the run is cut, and says so). */
const MAX_SESSION_BYTES = 64 * 1024 * 1024;
/** What a line's or step's wrapper adds as JSON, past its session id and capsule name ({"at":…,"seq":…}). */
const ENVELOPE_BYTES = 72;
/** A task's answer, question or failure as a node shows it at most. */
const TEXT_CHARS = 4000;

const cut = (s: string) => (s.length > TEXT_CHARS ? `${s.slice(0, TEXT_CHARS - 1)}…` : s);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

interface Entry {
  at: number;
  order: number;
  sessionId: string;
  capsule: string;
  seq: number;
  event: TraceEvent;
  bytes: number;
  step?: Omit<ReplayStep, 'line' | 'at' | 'sessionId' | 'capsule'>;
}

/** A task's state change from one of its lines, or undefined. */
function taskStateOf(
  e: TraceEvent & Record<string, unknown>,
  failures: Map<string, string>,
): ReplayTaskState | undefined {
  const taskId = str(e.task_id);
  const at = (state: TaskState, text = ''): ReplayTaskState => ({ taskId, state, text: cut(text) });
  switch (e.event_type) {
    case 'a2a_task_received':
      return at('TASK_STATE_SUBMITTED');
    case 'task_start':
      return at('TASK_STATE_WORKING');
    case 'input_required':
      return at('TASK_STATE_INPUT_REQUIRED', str(e.question));
    case 'task_failed':
      failures.set(taskId, str(e.message) || str(e.cause));
      return at('TASK_STATE_FAILED', failures.get(taskId));
    case 'task_canceled':
      return at('TASK_STATE_CANCELED', 'canceled');
    case 'task_end': {
      const state = (str(e.state) ||
        (e.exit_status === 'ok' ? 'TASK_STATE_COMPLETED' : 'TASK_STATE_FAILED')) as TaskState;
      return at(state, typeof e.answer === 'string' ? e.answer : (failures.get(taskId) ?? ''));
    }
    default:
      return undefined;
  }
}

/** One session's lines of the run's tasks, each with what it changed. */
async function readSession(
  path: string,
  order: number,
  capsule: string,
  runTasks: Set<string>,
): Promise<{ entries: Entry[]; cut: boolean }> {
  const tracker = createFlowTracker();
  const failures = new Map<string, string>();
  const entries: Entry[] = [];
  let last = 0;
  const fold = (l: TraceLine, seq: number) => {
    const e = l.event as TraceEvent & Record<string, unknown>;
    const taskId = str(e.task_id);
    // The run's own tasks only: a peer's session may have begun long before and served others.
    if (!taskId || !runTasks.has(taskId)) return;
    const parsed = Date.parse(e.ts);
    last = Number.isFinite(parsed) ? parsed : last;
    const flow = tracker.push(e);
    const task = taskStateOf(e, failures);
    const step =
      flow.delegation || flow.progress || task
        ? {
            ...(flow.delegation ? { delegations: flow.delegation } : {}),
            ...(flow.progress ? { progress: flow.progress } : {}),
            ...(task ? { task } : {}),
          }
        : undefined;
    const event =
      l.bytes > MAX_REPLAY_LINE_BYTES
        ? ({ ts: e.ts, event_type: e.event_type, session_id: e.session_id, task_id: taskId, cut: true } as TraceEvent)
        : e;
    entries.push({
      at: last,
      order,
      sessionId: e.session_id || '',
      capsule,
      seq,
      event,
      bytes: Math.min(l.bytes, MAX_REPLAY_LINE_BYTES),
      ...(step ? { step } : {}),
    });
  };
  // Folded as the file's pieces are read, so the main thread works one piece at a time. `seq` is
  // the line's place among the session's events (lines the readers' rules skip do not count).
  let seq = 0;
  const read = await streamTraceLines(path, { start: 0, maxBytes: MAX_SESSION_BYTES }, (batch) => {
    for (const l of batch) if ('event' in l) fold(l, seq++);
  });
  // A torn last line (a running session mid-write) is no cut: only a file over the bound is.
  return { entries, cut: read.size > MAX_SESSION_BYTES };
}

/** The run behind a session (or one of its tasks), read for replay from its traces alone. */
export async function replayOf(
  tracePath: string,
  recordsRoot: string,
  opts: { taskId?: string } = {},
): Promise<ReplayRun> {
  const run = await gatherRun(tracePath, recordsRoot, opts);
  const notes = [...run.notes];
  const runTasks = new Set(run.capsules.flatMap((c) => c.tasks.map((t) => t.taskId)));
  const all: Entry[] = [];
  let truncated = false;
  let order = 0;
  for (const c of run.capsules) {
    for (const id of c.sessionIds) {
      const path = run.paths[id];
      if (!path) continue;
      const read = await readSession(path, order++, c.capsule, runTasks);
      if (read.cut) {
        truncated = true;
        notes.push(
          `${c.capsule}: its trace is over ${MAX_SESSION_BYTES / 1024 / 1024} MiB; only its start is replayed`,
        );
      }
      for (const e of read.entries) all.push(e);
    }
  }
  // Time order across sessions; lines of one session keep their order (ts ties, clocks at ms).
  all.sort((a, b) => a.at - b.at || a.order - b.order || a.seq - b.seq);
  const lines: ReplayLine[] = [];
  const steps: ReplayStep[] = [];
  let bytes = 0;
  // 20,000 lines take the main thread tens of ms: built a slice at a time.
  const clock = sliceClock();
  for (const e of all) {
    if (clock.due()) await clock.next();
    // The reply's size: its lines and the steps they made, each with its envelope (at, session, capsule, index).
    const envelope = ENVELOPE_BYTES + e.sessionId.length + e.capsule.length;
    const size = e.bytes + envelope + (e.step ? JSON.stringify(e.step).length + envelope : 0);
    if (lines.length >= MAX_REPLAY_LINES || bytes + size > MAX_REPLAY_BYTES) {
      truncated = true;
      notes.push(
        `the run is longer than a replay holds (${MAX_REPLAY_LINES.toLocaleString('en')} lines, ${MAX_REPLAY_BYTES / 1024 / 1024} MiB); its first part is replayed`,
      );
      break;
    }
    bytes += size;
    const base = { at: e.at, sessionId: e.sessionId, capsule: e.capsule };
    if (e.step) steps.push({ ...base, line: lines.length, ...e.step });
    lines.push({ ...base, seq: e.seq, event: e.event });
  }
  return {
    sessionId: run.sessionId,
    entry: run.entry,
    capsules: run.capsules.map((c) => ({ capsule: c.capsule, sessionIds: c.sessionIds })),
    startedAt: lines[0]?.at ?? 0,
    endedAt: lines.at(-1)?.at ?? 0,
    lines,
    steps,
    truncated,
    notes,
  };
}
