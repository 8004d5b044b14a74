import { AbortedError } from '../drivers';
import type { Message } from '../../src-shared/a2a';
import type { ChatMessage } from '../drivers';
import { InputTimeoutError, type TaskOutcome, type TaskRun, type TaskUsage } from './executor';
import { runInTaskScope, type TaskScope } from './last-resort';
import type { InFlightWork } from './tool-types';
import { conversationOf, endTask, traceTask, type SessionCore } from './core';
import { statusMessage, type LiveTask } from './tasks';

// Runs one task with the session's executor and turns its outcome into the task's final state.

function waitForInput(core: SessionCore, t: LiveTask, question: string, n: number): Promise<string> {
  const message = statusMessage(t.id, t.contextId, question, `input_${n}`);
  t.history.push(message);
  t.waiting = 'input';
  core.registry.setStatus(t, 'TASK_STATE_INPUT_REQUIRED', message);
  traceTask(core, t, { event_type: 'input_required', question });
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

/** The executor's view of a running task (methods on the prototype: no closures per task). */
class RunningTask implements TaskRun {
  readonly sessionId: string;
  readonly taskId: string;
  readonly contextId: string;
  readonly text: string;
  readonly message: Message;
  readonly signal: AbortSignal;
  readonly usage: TaskUsage;
  private inputs = 0;
  constructor(
    private readonly core: SessionCore,
    private readonly t: LiveTask,
    readonly conversation: ChatMessage[],
  ) {
    this.sessionId = core.sessionId;
    this.taskId = t.id;
    this.contextId = t.contextId;
    this.text = t.text;
    this.message = t.history[0];
    this.signal = t.controller.signal;
    this.usage = t.usage;
  }
  trace(event: { event_type: string } & Record<string, unknown>): void {
    traceTask(this.core, this.t, { ...event });
  }
  track(work: InFlightWork): () => void {
    const works = this.t.works;
    works.add(work);
    return () => void works.delete(work);
  }
  setWaiting(what: string): void {
    this.t.waiting = what;
  }
  requestInput(question: string): Promise<string> {
    return waitForInput(this.core, this.t, question, ++this.inputs);
  }
}

/**
 * The task as the process's last-resort handler sees it: an error nobody caught in this task's
 * work fails the task (its outcome wins the race with the executor) and is traced.
 */
class TaskCrash implements TaskScope {
  readonly sessionId: string;
  readonly taskId: string;
  settled = false;
  readonly crashed: Promise<TaskOutcome>;
  private resolve!: (outcome: TaskOutcome) => void;
  constructor(
    private readonly core: SessionCore,
    private readonly t: LiveTask,
  ) {
    this.sessionId = core.sessionId;
    this.taskId = t.id;
    this.crashed = new Promise((r) => (this.resolve = r));
  }
  fail(err: unknown, origin: string): boolean {
    if (this.settled || this.t.canceling) return false;
    this.settled = true;
    const message = (err as Error)?.message || String(err);
    traceTask(this.core, this.t, { event_type: 'runtime_error', origin, message });
    // The caller is told what happened, not the error's own text (it may quote anything).
    this.resolve({ ok: false, cause: 'runtime_error', message: `internal error (${origin}) while running this task; the session trace has the details` });
    return true;
  }
}

export function runTask(core: SessionCore, t: LiveTask): Promise<void> {
  const scope = new TaskCrash(core, t);
  return runInTaskScope(scope, () => runScoped(core, t, scope));
}

async function runScoped(core: SessionCore, t: LiveTask, scope: TaskCrash): Promise<void> {
  t.startedAt = Date.now();
  core.registry.setStatus(t, 'TASK_STATE_WORKING');
  traceTask(core, t, { event_type: 'task_start', context_id: t.contextId });
  const run = new RunningTask(core, t, conversationOf(core, t.contextId));

  let outcome: TaskOutcome;
  try {
    outcome = await Promise.race([core.executor.run(run), scope.crashed]);
  } catch (err) {
    if (t.canceling) return;
    outcome = { ok: false as const, cause: 'executor_error' as const, message: (err as Error).message || String(err) };
  }
  const crashed = scope.settled;
  scope.settled = true;
  if (t.canceling) return;
  // What the crashed work still has in flight (an inference, a tool) is stopped.
  if (crashed) t.controller.abort();
  if (outcome.ok) {
    core.registry.addArtifact(t, { artifactId: 'response', name: 'response', parts: [{ text: outcome.answer, mediaType: 'text/plain' }] });
    core.registry.setStatus(t, 'TASK_STATE_COMPLETED', statusMessage(t.id, t.contextId, 'task completed'));
    endTask(core, t, 'ok', 'TASK_STATE_COMPLETED', outcome.answer);
  } else {
    traceTask(core, t, { event_type: 'task_failed', cause: outcome.cause, message: outcome.message });
    core.registry.setStatus(t, 'TASK_STATE_FAILED', statusMessage(t.id, t.contextId, `task failed: ${outcome.message}`));
    endTask(core, t, 'failed', 'TASK_STATE_FAILED');
  }
}
