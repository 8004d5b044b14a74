import { AbortedError } from '../drivers';
import type { Message } from '../../src-shared/a2a';
import type { ArtifactChunk, ChatMessage } from '../drivers';
import { addArtifactChunk, replyMessage, responseArtifact } from './answer';
import { InputTimeoutError, type TaskOutcome, type TaskRun, type TaskUsage } from './executor';
import { leaveTaskScope, runInTaskScope, type TaskScope } from './last-resort';
import type { InFlightWork } from './tool-types';
import { conversationOf, endTask, traceTask, type SessionCore } from './core';
import { statusMessage, type LiveTask } from './tasks';
import { pauseAt, pausesAt } from './breakpoints';
import { shallowCopy } from './shallow-copy';
import type { PauseOutcome, PausePoint } from './pause';

// Runs one task with the session's executor and turns its outcome into the task's final state.

/**
 * The task waits for its caller. It gives up the session's running slot meanwhile (the next
 * queued task starts), and takes it back first in line once the input arrives (accept.ts).
 */
function waitForInput(core: SessionCore, t: LiveTask, question: string, n: number): Promise<string> {
  const message = statusMessage(t.id, t.contextId, question, `input_${n}`);
  t.history.push(message);
  t.waiting = 'input';
  core.registry.setStatus(t, 'TASK_STATE_INPUT_REQUIRED', message);
  traceTask(core, t, { event_type: 'input_required', question });
  core.queue.park(t.id);
  queueMicrotask(core.pump);
  const signal = t.controller.signal;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      t.input = undefined;
      signal.removeEventListener('abort', onAbort);
      reject(new InputTimeoutError(core.inputTimeoutMs));
    }, core.inputTimeoutMs);
    const onAbort = () => {
      clearTimeout(timer);
      t.input = undefined;
      reject(new AbortedError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    t.input = {
      resolve(text) {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        t.input = undefined;
        resolve(text);
      },
    };
  });
}

/**
 * The input arrived: the task goes to the front of the line and continues once the task running
 * now (if any) is done. A cancel meanwhile ends the wait.
 */
export function takeSlotBack(core: SessionCore, t: LiveTask): Promise<void> {
  const signal = t.controller.signal;
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(new AbortedError());
    const onAbort = () => reject(new AbortedError());
    signal.addEventListener('abort', onAbort, { once: true });
    core.resumes.set(t.id, () => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
    core.queue.unpark(t.id);
    core.pump();
  });
}

/** The executor's view of a running task (methods on the prototype: no closures per task). */
class RunningTask implements TaskRun {
  readonly sessionId: string;
  readonly taskId: string;
  readonly contextId: string;
  readonly text: string;
  readonly message: Message;
  readonly usage: TaskUsage;
  private inputs = 0;
  private readonly artifactCount = { n: 0 };
  constructor(
    private readonly core: SessionCore,
    private readonly t: LiveTask,
    readonly conversation: ChatMessage[],
    private readonly scope: TaskScope,
  ) {
    this.sessionId = core.sessionId;
    this.taskId = t.id;
    this.contextId = t.contextId;
    this.text = t.text;
    this.message = t.history[0];
    this.usage = t.usage;
  }
  get signal(): AbortSignal {
    return this.t.controller.signal;
  }
  get aborted(): boolean {
    return this.t.controller.aborted;
  }
  trace(event: { event_type: string } & Record<string, unknown>): void {
    // The writer serializes the event at once and keeps no reference to it; it only sets the
    // task_id of an event that has one of its own: that event is copied, the executor's left as is.
    traceTask(this.core, this.t, 'task_id' in event ? shallowCopy(event) : event);
  }
  guard<T>(work: () => T): T {
    return runInTaskScope(this.scope, work);
  }
  track(work: InFlightWork): () => void {
    const works = this.t.works;
    works.add(work);
    return () => void works.delete(work);
  }
  get traceparent(): string | undefined {
    return this.t.traceparent;
  }
  setWaiting(what: string): void {
    this.t.waiting = what;
  }
  async requestInput(question: string): Promise<string> {
    const text = await waitForInput(this.core, this.t, question, ++this.inputs);
    await takeSlotBack(this.core, this.t);
    return text;
  }
  pauseAt(point: PausePoint): Promise<PauseOutcome> | undefined {
    // Checked first: a task with no breakpoint makes no closure per turn.
    if (!pausesAt(this.core.breakpoints, this.t, point)) return undefined;
    return pauseAt(this.core, this.t, point, () => takeSlotBack(this.core, this.t));
  }
  addArtifact(chunk: ArtifactChunk): void {
    if (!this.t.controller.aborted) addArtifactChunk(this.core, this.t, chunk, this.artifactCount);
  }
}

/** How a run ends: the executor's outcome, or what it threw, and whether a crash decided it. */
type Ending = { outcome: TaskOutcome; crashed: boolean } | { threw: unknown };

/**
 * The task as the process's last-resort handler sees it: an error nobody caught in this task's
 * work fails the task (the first of it and the executor's own outcome decides) and is traced.
 */
class TaskCrash implements TaskScope {
  readonly sessionId: string;
  readonly taskId: string;
  // Timers and sockets started during the task keep its async context, and so this scope, alive
  // long after the task ended: once settled the scope lets go of the task (its messages and
  // answer), or every finished task would stay in memory through them.
  private t: LiveTask | undefined;
  constructor(
    private readonly core: SessionCore,
    t: LiveTask,
  ) {
    this.sessionId = core.sessionId;
    this.taskId = t.id;
    this.t = t;
  }
  get settled(): boolean {
    return this.t === undefined;
  }
  /** The task's outcome is decided: later errors in its leftover work are not its own. */
  settle(): void {
    this.t = undefined;
    leaveTaskScope(this);
  }
  /** The executor answered (or threw): the run ends, unless a crash ended it first. */
  answer(ending: Ending): void {
    const t = this.t;
    if (!t) return;
    this.settle();
    endRunSafely(this.core, t, ending);
  }
  fail(err: unknown, origin: string): boolean {
    const t = this.t;
    if (!t || t.canceling) return false;
    const message = (err as Error)?.message || String(err);
    traceTask(this.core, t, { event_type: 'runtime_error', origin, message });
    this.settle();
    // The caller is told what happened, not the error's own text (it may quote anything). The task
    // ends once the handler is done, as a promise continuation would end it.
    const outcome: TaskOutcome = {
      ok: false,
      cause: 'runtime_error',
      message: `internal error (${origin}) while running this task; the session trace has the details`,
    };
    queueMicrotask(() => endRunSafely(this.core, t, { outcome, crashed: true }));
    return true;
  }
}

/**
 * Runs a task. An executor that guards its own work (the agent loop enters the task's scope
 * around driver turns and tools) runs outside it, the others run wholly inside it. One
 * continuation on the executor's promise, no race and no async frames (while a scope is open every
 * promise costs hook calls), and no inline named functions (tsx names each one it assigns, a
 * defineProperty call apiece).
 */
export function runTask(core: SessionCore, t: LiveTask): void {
  const scope = new TaskCrash(core, t);
  if (core.executor.guardsItself) startRunSafely(core, t, scope);
  else runInTaskScope(scope, () => startRunSafely(core, t, scope));
}

function startRunSafely(core: SessionCore, t: LiveTask, scope: TaskCrash): void {
  try {
    startRun(core, t, scope);
  } catch (err) {
    scope.settle();
    machineryFailed(core, t, err);
  }
}

/** A bug in the task machinery must not take the session down: it is recorded and the slot freed. */
function machineryFailed(core: SessionCore, t: LiveTask, err: unknown): void {
  core.trace.append({ event_type: 'runtime_error', task_id: t.id, message: (err as Error)?.message ?? String(err) });
  if (core.queue.running === t.id) core.queue.running = null;
  core.pump();
}

function startRun(core: SessionCore, t: LiveTask, scope: TaskCrash): void {
  t.startedAt = Date.now();
  core.registry.setStatus(t, 'TASK_STATE_WORKING');
  traceTask(core, t, { event_type: 'task_start', context_id: t.contextId });
  const run = new RunningTask(core, t, conversationOf(core, t.contextId), scope);
  let running: Promise<TaskOutcome>;
  try {
    running = core.executor.run(run);
  } catch (threw) {
    return scope.answer({ threw });
  }
  // Whichever comes first, the executor's answer or a crash, decides; the other finds it settled.
  (running instanceof Promise ? running : Promise.resolve(running)).then(
    (outcome) => scope.answer({ outcome, crashed: false }),
    (threw: unknown) => scope.answer({ threw }),
  );
}

function endRunSafely(core: SessionCore, t: LiveTask, ending: Ending): void {
  try {
    endRun(core, t, ending);
  } catch (err) {
    machineryFailed(core, t, err);
  }
}

function endRun(core: SessionCore, t: LiveTask, ending: Ending): void {
  let outcome: TaskOutcome;
  if ('threw' in ending) {
    if (t.canceling) return;
    outcome = {
      ok: false as const,
      cause: 'executor_error' as const,
      message: (ending.threw as Error)?.message || String(ending.threw),
    };
  } else outcome = ending.outcome;
  if (t.canceling) return;
  // What the crashed work still has in flight (an inference, a tool) is stopped.
  if ('crashed' in ending && ending.crashed) t.controller.abort();
  if (outcome.ok) {
    core.registry.addArtifact(t, responseArtifact(outcome));
    // A message answer is the final status message (and the last of the history): a blocking
    // SendMessage hands it to its caller instead of the Task (door/methods/send.ts).
    const reply = outcome.answerAs === 'message' ? replyMessage(t, outcome) : undefined;
    if (reply) t.history.push(reply);
    // A note (every delegation failed) is the status text, or rides on the reply Message as metadata.
    if (reply && outcome.note) reply.metadata = { ...reply.metadata, note: outcome.note };
    const record = recordIncomplete(core, t);
    const status =
      (outcome.note ? `task completed, but ${outcome.note}` : 'task completed') + (record ? `; ${record}` : '');
    const message = reply ?? statusMessage(t.id, t.contextId, status);
    // The Studio (and any caller) reads it from the metadata without parsing the text.
    if (record) message.metadata = { ...message.metadata, record };
    const settled = core.registry.setStatus(t, 'TASK_STATE_COMPLETED', message);
    endTask(core, t, 'ok', 'TASK_STATE_COMPLETED', outcome.answer, settled);
  } else {
    traceTask(core, t, { event_type: 'task_failed', cause: outcome.cause, message: outcome.message });
    const record = recordIncomplete(core, t);
    const message = statusMessage(t.id, t.contextId, `task failed: ${outcome.message}${record ? `; ${record}` : ''}`);
    if (record) message.metadata = { record };
    const settled = core.registry.setStatus(t, 'TASK_STATE_FAILED', message);
    endTask(core, t, 'failed', 'TASK_STATE_FAILED', undefined, settled);
  }
}

/**
 * What the final status adds when the task's record may not be whole: lines of its session were
 * lost while it ran (a full disk, a write error), or writes are failing as it ends, so its last
 * lines are likely lost too. A task's answer never claims it was safely recorded when it was not.
 */
function recordIncomplete(core: SessionCore, t: LiveTask): string | undefined {
  const lost = core.trace.lostLines - t.lostAtArrival;
  if (lost <= 0 && !core.trace.failing) return undefined;
  return `its trace record is incomplete: ${lost > 0 ? `${lost} line(s) of this session could not be written` : 'the trace cannot be written now'} (the session's trace.jsonl)`;
}
