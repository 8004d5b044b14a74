import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Task } from '../../src-shared/a2a';
import { CoreError, type ForkStarted, type SessionItemView } from '../../src-shared/contract';
import {
  compareRuns,
  ForkError,
  forkOptions,
  prepareFork,
  readRecordedSession,
  type RecordedSession,
} from '../recording';
import type { Session, SessionOptions } from '../runtime';
import { findTraceOfSession } from '../trace';
import type { StudioContext } from './context';
import { launchFork } from './fork-run';
import { formationResolver } from './formation-resolver';
import type { Handlers } from './handlers';
import { fallbackSessions } from './traces-fallback';
import { sessionItem, type TracesService } from './traces';

// "Fork from here" (a task in the sessions browser, a turn in the inspector), the fork family and
// "Compare" in the sessions browser. A fork runs in a session of its own beside the formation's
// (the capsule's node keeps running its own session); it ends once its task settles.

/** Forks running at once; one more is refused until one settles. */
const MAX_RUNNING_FORKS = 8;
/** How long sessions.fork waits for the fork's answer before answering with the fork under way. */
const ANSWER_WAIT_MS = 60_000;
/** A fork still working after this long is canceled and its session ended. */
const FORK_LIMIT_MS = 30 * 60_000;
/** The biggest trace a fork or a comparison reads whole. */
const MAX_TRACE_BYTES = 64 * 1024 * 1024;

export type ForkHandlers = Pick<
  Handlers,
  'sessions.fork' | 'sessions.forkOptions' | 'sessions.family' | 'sessions.compare'
>;

export interface ForkService {
  handlers: ForkHandlers;
  dispose(): Promise<void>;
}

const answerOf = (task: Task): string | null =>
  task.artifacts?.[0]?.parts.find((p) => typeof p.text === 'string')?.text ?? null;

export function createForkService(
  ctx: StudioContext,
  deps: { traces: TracesService; startSession(opts: SessionOptions): Promise<Session> },
): ForkService {
  const { index, recordsRoot } = deps.traces;
  const running = new Map<string, Session>();
  const capsuleOf = (sessionId: string) => ctx.sessions.bySessionId(sessionId);

  const tracePathOf = async (sessionId: string): Promise<string> => {
    const s = index.open();
    const found = s ? await index.refresh(s, sessionId).catch(() => undefined) : undefined;
    const live = capsuleOf(sessionId)?.session ?? running.get(sessionId);
    await live?.trace.flush();
    const path =
      [found?.tracePath, live?.trace.path].find((p): p is string => !!p && existsSync(p)) ??
      (await findTraceOfSession(recordsRoot, sessionId));
    if (!path) throw new CoreError('not_found', `No records of session ${sessionId} on this machine.`);
    return path;
  };
  const readSession = async (sessionId: string): Promise<RecordedSession> => {
    const path = await tracePathOf(sessionId);
    if ((await stat(path)).size > MAX_TRACE_BYTES)
      throw new CoreError(
        'invalid_input',
        `The trace of ${sessionId} is over ${MAX_TRACE_BYTES >> 20} MB: too big to read whole.`,
      );
    // Read and folded in pieces: a big trace never holds the main thread for longer than one piece.
    return readRecordedSession(path);
  };
  const itemOf = async (sessionId: string): Promise<SessionItemView> => {
    const s = index.open();
    if (s) return sessionItem(await index.refresh(s, sessionId), capsuleOf(sessionId)?.id);
    const item = fallbackSessions(recordsRoot, {}, capsuleOf).find((x) => x.id === sessionId);
    if (!item) throw new CoreError('not_found', `No recorded session ${sessionId}.`);
    return item;
  };
  /** The formation capsule whose manifest the fork runs, so its delegations reach the others by name. */
  const formationOf = (manifestPath: string) => {
    const ws = ctx.current();
    const c = ws?.snapshot().capsules.find((x) => resolve(x.file) === resolve(manifestPath));
    return c ? formationResolver(ctx, c.id) : undefined;
  };

  /** A ForkError as the contract's error (its code and words). */
  const forkStep = <T>(step: () => T): T => {
    try {
      return step();
    } catch (err) {
      if (err instanceof ForkError) throw new CoreError(err.code, err.message);
      throw err;
    }
  };

  const handlers: ForkHandlers = {
    async 'sessions.forkOptions'({ sessionId, taskId }) {
      const recorded = await readSession(sessionId);
      return forkStep(() => forkOptions(recorded, taskId));
    },
    async 'sessions.fork'({ sessionId, taskId, turn, message, delegations, driver }, call): Promise<ForkStarted> {
      if (running.size >= MAX_RUNNING_FORKS)
        throw new CoreError('conflict', `${MAX_RUNNING_FORKS} forks are running already; wait for one to finish.`);
      const recorded = await readSession(sessionId);
      const env = ctx.config.env ?? process.env;
      const prepared = forkStep(() =>
        prepareFork(recorded, {
          taskId,
          turn,
          driver,
          env,
          ...(message !== undefined ? { message } : {}),
          ...(delegations ? { delegations } : {}),
        }),
      );
      const formation = formationOf(prepared.manifestPath);
      // Esc while the recorded run was read: nothing has started, so nothing starts.
      if (call?.signal?.aborted)
        throw new CoreError('canceled', 'The fork was canceled before it started; nothing ran.');
      const launched = await launchFork(prepared, {
        startSession: deps.startSession,
        recordsRoot,
        env,
        ...(formation ? { formation } : {}),
      });
      const { session } = launched;
      running.set(session.id, session);
      const limit = setTimeout(
        () => void session.cancelTask(launched.taskId, 'the fork ran too long').catch(() => undefined),
        FORK_LIMIT_MS,
      );
      const done = launched.settled.then(
        async (task) => {
          await session.end('fork finished');
          return task;
        },
        async (err: unknown) => {
          await session.end('fork failed');
          throw err;
        },
      );
      void done
        .catch(() => undefined)
        .finally(() => {
          clearTimeout(limit);
          running.delete(session.id);
        });
      let timer: NodeJS.Timeout | undefined;
      const waited = await Promise.race([
        done,
        new Promise<undefined>((ok) => (timer = setTimeout(() => ok(undefined), ANSWER_WAIT_MS))),
      ]).finally(() => clearTimeout(timer));
      if (!waited) {
        // The answer went out with the fork under way: say so when it settles.
        void done.then(
          (t) =>
            ctx.emit('notice.raised', {
              level: 'info',
              message: `Fork ${session.id} of ${sessionId} at turn ${turn} ended: ${t.status.state.replace('TASK_STATE_', '')}.`,
            }),
          (err: unknown) =>
            ctx.emit('notice.raised', {
              level: 'error',
              message: `Fork ${session.id} of ${sessionId} failed: ${(err as Error).message}`,
            }),
        );
      }
      const task = waited ?? (await session.readTask(launched.taskId));
      return {
        sessionId: session.id,
        taskId: launched.taskId,
        state: task?.status.state ?? 'TASK_STATE_SUBMITTED',
        answer: task ? answerOf(task) : null,
      };
    },
    async 'sessions.family'({ sessionId }) {
      const s = index.open();
      if (!s) return { ancestors: [], forks: [] };
      await index.sync();
      await index.refresh(s, sessionId);
      const family = s.family(sessionId);
      const view = (x: (typeof family.forks)[number]) => sessionItem(x, capsuleOf(x.id)?.id);
      return { ancestors: family.ancestors.map(view), forks: family.forks.map(view) };
    },
    async 'sessions.compare'({ a, b }) {
      if (a === b) throw new CoreError('invalid_input', 'Pick two different sessions to compare.');
      const [ra, rb, ia, ib] = await Promise.all([readSession(a), readSession(b), itemOf(a), itemOf(b)]);
      return { a: ia, b: ib, ...compareRuns(ra, rb) };
    },
  };

  return {
    handlers,
    async dispose() {
      await Promise.all([...running.values()].map((s) => s.end('the Studio is closing').catch(() => undefined)));
      running.clear();
    },
  };
}
