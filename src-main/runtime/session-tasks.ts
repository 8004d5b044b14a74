import { unsupportedOperation, type Task } from '../../src-shared/a2a';
import { durationMs, type Manifest } from '../../src-shared/manifest';
import type { TraceWriter } from '../trace';
import { acceptMessage } from './accept';
import type { IncomingMessage, SessionStatus, StopSessionResult } from './api';
import { cancelableIds, cancelTask } from './cancel';
import type { SessionCore } from './core';
import type { TaskExecutor } from './executor';
import { createTaskQueue } from './queue';
import { runTask } from './run';
import { createTaskRegistry } from './tasks';
import { createConversations } from './conversations';
import { resumePaused } from './breakpoints';
import type { ResumeAction, SessionBreakpoints } from './pause';
import type { RecordedTask } from './task-records';
import type { ResidueItem } from './tool-types';

// A session's task machinery and lifecycle (after_task, idle_timeout), without the door.

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
    getTask: (id: string, historyLength?: number): Task | undefined => registry.get(id, historyLength),
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
    cancelTask: async (id: string, by?: string): Promise<Task> => (await cancelTask(core, id, by)).task,
    stopSession: () => stopSession(),
    /** Cancels everything for the end of the session. */
    stopForEnd: () => stopSession('session_end'),
    status(): SessionStatus {
      return {
        state: core.queue.running ? 'busy' : 'idle',
        running: core.queue.running,
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
