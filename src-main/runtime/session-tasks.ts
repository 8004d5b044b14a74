import { isTerminal, taskNotCancelable, taskNotFound, unsupportedOperation, type Task } from '../../src-shared/a2a';
import { durationMs, type Manifest } from '../../src-shared/manifest';
import type { TraceWriter } from '../trace';
import { acceptMessage } from './accept';
import type { IncomingMessage, SessionStatus, StopSessionResult } from './api';
import { endTask, traceTask, type SessionCore } from './core';
import type { TaskExecutor } from './executor';
import { createTaskQueue } from './queue';
import { runTask } from './run';
import { createTaskRegistry, statusMessage, type CancelAnswer, type LiveTask } from './tasks';
import { createConversations } from './conversations';
import { resumePaused } from './breakpoints';
import type { ResumeAction, SessionBreakpoints } from './pause';
import type { RecordedTask } from './task-records';
import type { InFlightWork, ResidueItem } from './tool-types';

// A session's task machinery and lifecycle (after_task, idle_timeout), without the door, and its
// cancel: "cancel means stopped". The driver turn is aborted at once, every tracked piece of work is
// canceled and what it leaves running is reported as residue. A late result never overwrites it.

async function collectResidue(works: InFlightWork[]): Promise<{ inFlight: string[]; residue: ResidueItem[] }> {
  const inFlight = works.map((w) => {
    try {
      return w.describe();
    } catch {
      return 'work';
    }
  });
  const results = await Promise.all(works.map((w) => w.cancel().catch(() => undefined)));
  return { inFlight, residue: results.filter((r): r is ResidueItem => r !== undefined) };
}

async function cancelLive(core: SessionCore, t: LiveTask, by: string): Promise<CancelAnswer> {
  const queued = core.queue.remove(t.id);
  const interrupted = queued ? 'queue' : t.waiting;
  // What was in flight is read before the abort, which lets tools start unwinding at once.
  const works = [...t.works];
  t.works.clear();
  t.controller.abort();
  const { inFlight, residue } = await collectResidue(works);
  if (residue.length) {
    core.registry.addArtifact(t, {
      artifactId: 'residue',
      name: 'residue',
      parts: residue.map((data) => ({ data, mediaType: 'application/json' })),
    });
  }
  // A harness that had to be killed says so in the terminal status (docs/door.md, cancel).
  const note = works.map((w) => w.canceledStatus?.()).find(Boolean);
  core.registry.setStatus(t, 'TASK_STATE_CANCELED', note ? statusMessage(t.id, t.contextId, note) : undefined);
  traceTask(core, t, { event_type: 'task_canceled', interrupted, in_flight: inFlight, residue, by });
  const task = core.registry.toTask(t);
  endTask(core, t, 'canceled', 'TASK_STATE_CANCELED');
  return { task, residue };
}

/** Cancels one task: rejects with -32001 for an unknown task, -32002 for a terminal one. */
async function cancelTask(core: SessionCore, id: string, by = 'client'): Promise<CancelAnswer> {
  const t = core.registry.live.get(id);
  if (!t) {
    // A finished task's state is kept in memory whatever its age: no record is read to refuse it.
    const state = core.registry.stateOf(id);
    if (state && isTerminal(state)) throw taskNotCancelable(id, state);
    throw taskNotFound(id);
  }
  // A cancel already under way answers the same way.
  return (t.canceling ??= cancelLive(core, t, by));
}

/** Every task the session still holds (running, queued, input-required), queued ones first. */
function cancelableIds(core: SessionCore): string[] {
  const queued = [...core.queue.waiting];
  const rest = [...core.registry.live.keys()].filter((id) => !queued.includes(id));
  return [...queued, ...rest];
}

export interface SessionTasksDeps {
  sessionId: string;
  manifest: Manifest;
  trace: TraceWriter;
  executor: TaskExecutor;
  /** Masked in every task and task event the session hands out. */
  secrets?: readonly string[];
  inputTimeoutMs: number;
}

export function createSessionTasks(deps: SessionTasksDeps) {
  const lifecycle = deps.manifest.lifecycle;
  const idleMs = lifecycle?.idle_timeout !== undefined ? durationMs(lifecycle.idle_timeout, 0) : 0;
  const registry = createTaskRegistry({ trace: deps.trace, secrets: deps.secrets });
  let ended = false;
  let started = false;
  let idleTimer: NodeJS.Timeout | undefined;
  let endListener: ((reason: string) => void) | undefined;

  const lifecycleEnd = (reason: string) => {
    if (!ended) setImmediate(() => endListener?.(reason));
  };
  const armIdle = () => {
    clearTimeout(idleTimer);
    if (idleMs > 0 && started && !ended && registry.live.size === 0)
      idleTimer = setTimeout(() => lifecycleEnd('idle timeout'), idleMs);
  };

  const core: SessionCore = {
    sessionId: deps.sessionId,
    manifest: deps.manifest,
    trace: deps.trace,
    registry,
    queue: createTaskQueue(lifecycle),
    executor: deps.executor,
    conversations: createConversations(registry),
    inputTimeoutMs: deps.inputTimeoutMs,
    resumes: new Map(),
    totals: { tokensIn: 0, tokensOut: 0 },
    pump() {
      if (ended) return;
      const id = core.queue.next();
      if (id === undefined) return;
      const t = registry.live.get(id);
      if (!t) {
        core.queue.running = null;
        return core.pump();
      }
      // A task back from waiting for input continues where it stopped.
      const resume = core.resumes.get(id);
      if (resume) {
        core.resumes.delete(id);
        return resume();
      }
      // A context whose conversation needs tasks memory no longer holds is rebuilt from the records
      // first, off the main thread; the task keeps the running slot meanwhile.
      const rebuilding = core.conversations.prepare(t.contextId);
      if (rebuilding)
        return void rebuilding.then(
          () => startRebuilt(t),
          () => startRebuilt(t),
        );
      // A bug in the task machinery is recorded and frees the slot (run.ts): the session stays up.
      runTask(core, t);
    },
    onTaskFinished(exit) {
      if (registry.live.size > 0 || ended) return;
      // A rejected task never ran, so it is not the "last task" after_task: exit waits for.
      if (lifecycle?.after_task === 'exit' && exit !== 'rejected') lifecycleEnd('after_task exit');
      else armIdle();
    },
    onTaskArrived() {
      clearTimeout(idleTimer);
    },
  };

  /** Starts a task whose conversation was rebuilt, unless it was canceled meanwhile (its end freed the slot). */
  function startRebuilt(t: LiveTask): void {
    if (registry.live.get(t.id) === t && !t.controller.aborted && !ended) runTask(core, t);
    else core.conversations.drop(t.contextId);
  }

  /**
   * The task the session works on: the one holding the running slot, else one paused at a
   * breakpoint. A paused task gives the slot up (breakpoints.ts) but is still the capsule's work in
   * hand, so every view of the session (the Studio's node, Stop's count, a restart waiting for the
   * task) reads it as running; derived from the pause itself, never kept beside it.
   */
  function workingOn(): string | null {
    if (core.queue.running) return core.queue.running;
    for (const id of core.queue.parked) if (registry.live.get(id)?.pause) return id;
    return null;
  }

  async function stopSession(by = 'stop_session'): Promise<StopSessionResult> {
    const ids = cancelableIds(core);
    const answers = await Promise.all(ids.map((id) => cancelTask(core, id, by).catch(() => undefined)));
    const residue: ResidueItem[] = [];
    const canceled: string[] = [];
    answers.forEach((a, i) => {
      if (!a) return;
      canceled.push(ids[i]);
      residue.push(...a.residue);
    });
    return { session_id: deps.sessionId, canceled: canceled.sort(), residue };
  }

  return {
    peekTask: (id: string, historyLength?: number): Task | undefined => registry.peek(id, historyLength),
    taskState: (id: string) => registry.stateOf(id),
    readTask: (id: string, historyLength?: number, payload?: boolean): Promise<Task | undefined> =>
      registry.read(id, historyLength, payload),
    listTasks: (): Task[] => registry.list(),
    onTaskEvent: registry.onTaskEvent,
    acceptMessage(incoming: IncomingMessage) {
      if (ended) throw unsupportedOperation('this session is ending and takes no more messages');
      return acceptMessage(core, incoming);
    },
    setBreakpoints(bp: SessionBreakpoints | undefined) {
      core.breakpoints = bp;
    },
    resumeBreakpoint: (id: string, action: ResumeAction, text?: string) =>
      resumePaused(registry.live.get(id), id, action, text),
    /** The canceled task and its residue (masked like the task), or the door's A2A error. */
    async cancelTask(id: string, by?: string): Promise<CancelAnswer> {
      const { task, residue } = await cancelTask(core, id, by);
      return { task, residue: registry.mask(residue) };
    },
    stopSession: () => stopSession(),
    /** Cancels everything for the end of the session. */
    stopForEnd: () => stopSession('session_end'),
    status(): SessionStatus {
      const running = workingOn();
      return {
        state: running ? 'busy' : 'idle',
        running,
        queued: core.queue.waiting.length,
        tasks: registry.count(),
        tokensIn: core.totals.tokensIn,
        tokensOut: core.totals.tokensOut,
      };
    },
    count: () => registry.count(),
    restore: (recorded: RecordedTask[]) => registry.restore(recorded),
    start() {
      started = true;
      armIdle();
    },
    markEnded() {
      ended = true;
      clearTimeout(idleTimer);
    },
    isEnded: () => ended,
    onLifecycleEnd(listener: (reason: string) => void) {
      endListener = listener;
    },
  };
}
