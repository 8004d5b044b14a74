import type { HarnessSpec } from '../../src-shared/manifest';
import type { ExecutorDeps, TaskExecutor, TaskOutcome, TaskRun } from './executor';
import { maskSecrets } from '../trace';
import { startHarness, type HarnessExit, type HarnessRun, type HarnessStart } from '../drivers/process';

// The process transport: each task runs the manifest's harness CLI once, which brings its own
// agent loop. The harness session of a context is remembered, so the next message in that context
// resumes it, also after a cancel (the session, its queue and its conversation survive a cancel).

export const KILLED_NOTE = 'task canceled; the harness was killed and its session may not resume cleanly';

export interface ProcessExecutorOptions {
  /** Working directory of the harness (the capsule's folder); the current one otherwise. */
  cwd?: string;
}

export interface ProcessExecutor extends TaskExecutor {
  /** The harness session a context resumes next, if any. */
  sessionOf(contextId: string): string | undefined;
}

function exitFields(exit: HarnessExit) {
  return { code: exit.code, signal: exit.signal, killed: exit.killed };
}

export function createProcessExecutor(
  deps: Pick<ExecutorDeps, 'manifest' | 'secrets'> & Partial<ExecutorDeps>,
  opts: ProcessExecutorOptions = {},
): ProcessExecutor {
  const spec: HarnessSpec | undefined = deps.manifest.inference.harness;
  if (!spec) throw new Error('inference.transport: process needs inference.harness (command, args, prompt, interrupt)');
  const sessions = new Map<string, string>();
  const running = new Set<HarnessRun>();
  const mask = (s: string) => maskSecrets(s, deps.secrets);

  async function run(task: TaskRun): Promise<TaskOutcome> {
    const resume = sessions.get(task.contextId);
    if (!task.signal.aborted) task.conversation.push({ role: 'user', content: task.text });
    task.setWaiting(`harness ${spec!.command}`);
    const start: HarnessStart = {
      prompt: task.text,
      resume,
      cwd: opts.cwd,
      onOutput: (text) => task.trace({ event_type: 'harness_output', text }),
    };
    const started = Date.now();
    const h = startHarness(spec!, start);
    running.add(h);
    task.trace({ event_type: 'harness_start', command: spec!.command, pid: h.pid ?? null, resume: resume ?? null });

    let stopped: Promise<HarnessExit> | undefined;
    const stop = () =>
      (stopped ??= h
        .cancel((interrupt) =>
          task.trace({
            event_type: 'harness_interrupt',
            interrupt,
            ...(typeof spec!.interrupt === 'object' ? { bytes: spec!.interrupt.stdin } : {}),
            grace_ms: interrupt === 'none' ? 0 : spec!.grace_ms,
          }),
        )
        .then((exit) => {
          task.trace({ event_type: 'harness_exit', cause: 'canceled', ...exitFields(exit) });
          return exit;
        }));
    let killed = false;
    const untrack = task.track({
      describe: () => `harness ${spec!.command} (pid ${h.pid ?? '?'})`,
      cancel: async () => {
        killed = (await stop()).killed;
        return undefined;
      },
      canceledStatus: () => (killed ? KILLED_NOTE : undefined),
    });
    // A cancel that reaches the task without its tracked work (e.g. during a race) still stops it.
    const onAbort = () => void stop();
    task.signal.addEventListener('abort', onAbort, { once: true });

    const result = await h.done;
    task.signal.removeEventListener('abort', onAbort);
    untrack();
    running.delete(h);
    if (result.sessionId) sessions.set(task.contextId, result.sessionId);
    if (task.signal.aborted) {
      await stopped;
      return { ok: false, cause: 'executor_error', message: 'canceled' };
    }
    task.usage.turns = 1;
    task.trace({
      event_type: 'harness_exit',
      cause: 'exited',
      ...exitFields(result.exit),
      duration_ms: Date.now() - started,
    });
    if (result.exit.code !== 0) {
      const how =
        result.exit.code === null ? `was ended by ${result.exit.signal}` : `exited with code ${result.exit.code}`;
      const tail = result.stderr.trim().split('\n').slice(-3).join(' | ');
      return {
        ok: false,
        cause: 'inference_error',
        message: mask(`harness ${spec!.command} ${how}${tail ? `: ${tail}` : ''}`),
      };
    }
    task.conversation.push({ role: 'assistant', content: result.answer });
    return { ok: true, answer: result.answer };
  }

  return {
    run,
    sessionOf: (contextId) => sessions.get(contextId),
    dispose() {
      for (const h of running) h.kill();
      running.clear();
    },
  };
}
