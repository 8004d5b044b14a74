import { countTraceLines } from '../trace';
import type { FormationResolver, Session, SessionOptions } from '../runtime';
import type { TraceEvent } from '../../src-shared/trace';
import { CoreError, lastTaskOf, type CapsuleState, type EventMap, type LastTaskView } from '../../src-shared/contract';
import { formatIssues, ManifestError } from '../manifest';
import { watchFlow, type Emit } from './flow-events';

// The running capsules of the open formation: one session each, started in-process. Turns
// session activity into contract events: state changes, task updates, and trace lines batched per
// session (one trace.appended per flush interval, however many lines a burst wrote), and the
// compact delegation.updated / task.progressed every client gets (flow-events.ts). Each capsule's
// last task that ended stays in its status (`lastTask`), after its session stops too, so a page
// that connects later shows the same Last output.

export type { Emit };

export interface CapsuleSessionsDeps {
  startSession(opts: SessionOptions): Promise<Session>;
  recordsRoot: string;
  emit: Emit;
  env?: Record<string, string | undefined>;
  /** How long trace lines gather before one trace.appended goes out. */
  traceFlushMs?: number;
  /** How a capsule's delegate_task finds the other capsules of its formation by name. */
  formationFor?: (id: string) => FormationResolver;
  /**
   * The name a capsule of the open formation goes by (its manifest's name, else its id), for the
   * `not_running` error; throws `not_found` (or `no_workspace`) for an id the formation does not have.
   */
  capsuleName?: (id: string) => string;
  /** A session started: what else follows it (the Studio's breakpoints); returns its unsubscribe. */
  onSession?: (id: string, session: Session) => () => void;
}

interface Slot {
  state: CapsuleState;
  session?: Session;
  error?: string;
  starting?: Promise<Session>;
  unsubscribe: (() => void)[];
  /** The last task that ended or asked for input, in this session or an earlier one: kept after the session stops. */
  lastTask?: LastTaskView;
}

export type CapsuleStatus = EventMap['capsule.stateChanged'];

export interface CapsuleSessions {
  status(id: string): CapsuleStatus;
  launch(id: string, manifestPath: string): Promise<Session>;
  stop(id: string): Promise<void>;
  /**
   * The running session of a capsule of the open workspace, in one call: a capsule that is not
   * running is `not_running` (naming it), one the formation does not have `not_found`. A session
   * whose capsule left the formation while it ran is still found, so it can still be stopped.
   */
  session(id: string): Session;
  running(): string[];
  /**
   * Sessions belong to the workspace they were launched from: ids are looked up in the workspace
   * set here. Sessions of another workspace left running keep running, out of sight, until that
   * workspace is open again (or the Studio ends).
   */
  setWorkspace(dir: string): void;
  /** The running session of a capsule of a given workspace (open or not). */
  sessionIn(dir: string, id: string): Session | undefined;
  /** How many sessions run in workspaces other than the open one. */
  runningElsewhere(): number;
  /** Forgets why the last launch or session failed (its cause was edited away): the capsule shows Stopped. */
  clearFailure(id: string): void;
  /** The session with this id, among the running ones. */
  bySessionId(sessionId: string): { id: string; session: Session } | undefined;
  dispose(): Promise<void>;
}

function launchError(err: unknown, id: string): CoreError {
  if (err instanceof CoreError) return err;
  if (err instanceof ManifestError)
    return new CoreError(
      'manifest_invalid',
      `Cannot launch ${id}: its manifest has problems:\n${formatIssues(err.issues)}`,
    );
  const message = (err as Error)?.message ?? String(err);
  if ((err as NodeJS.ErrnoException)?.code === 'EADDRINUSE' || /already in use|EADDRINUSE/.test(message)) {
    return new CoreError('port_taken', `Cannot launch ${id}: ${message}`);
  }
  return new CoreError('launch_failed', `Cannot launch ${id}: ${message}`);
}

/**
 * How many lines the trace holds now (session_start, or a resumed session's whole history). The
 * size is where the lines appended so far end, so lines written while the count runs (off the main
 * thread's way, in chunks) are not counted twice; they reach the watcher as events.
 */
async function linesSoFar(session: Session): Promise<number> {
  const size = await session.trace.flush();
  return countTraceLines(session.trace.path, size);
}

export function createCapsuleSessions(deps: CapsuleSessionsDeps): CapsuleSessions {
  /** Keyed by workspace folder and capsule id: two workspaces may both have a "worker". */
  const slots = new Map<string, Slot>();
  let dir = '';
  const keyOf = (d: string, id: string) => `${d}\0${id}`;
  const idOf = (key: string) => key.slice(key.indexOf('\0') + 1);
  const mine = (key: string) => key.startsWith(`${dir}\0`);
  const flushMs = deps.traceFlushMs ?? 40;
  const slot = (id: string): Slot => {
    let s = slots.get(keyOf(dir, id));
    if (!s) slots.set(keyOf(dir, id), (s = { state: 'stopped', unsubscribe: [] }));
    return s;
  };

  const status = (id: string): CapsuleStatus => {
    const s = slot(id);
    const live = s.session?.status();
    let state = s.state;
    if (s.session && live && (state === 'idle' || state === 'busy'))
      state = live.state === 'busy' ? 'busy' : live.state === 'idle' ? 'idle' : state;
    return {
      id,
      state,
      ...(s.session ? { url: s.session.url, sessionId: s.session.id } : {}),
      queued: live?.queued ?? 0,
      tasks: live?.tasks ?? 0,
      running: live?.running ?? null,
      ...(s.error ? { error: s.error } : {}),
      ...(s.lastTask ? { lastTask: s.lastTask } : {}),
    };
  };
  const announce = (id: string) => deps.emit('capsule.stateChanged', status(id));

  const watchSession = (id: string, s: Slot, session: Session) => {
    let batch: TraceEvent[] = [];
    // Lines written before we subscribed (session_start) count too: trace.tail indexes the file.
    // Events wait for the count (line indexes must match trace.tail's).
    let next: number | undefined;
    const counted = linesSoFar(session).then(
      (n) => void (next = n),
      () => void (next = 0),
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stateTimer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      if (!batch.length) return;
      if (next === undefined) return void counted.then(flush);
      const events = batch;
      batch = [];
      deps.emit('trace.appended', { sessionId: session.id, capsuleId: id, first: next, events });
      next += events.length;
    };
    s.unsubscribe.push(
      session.trace.subscribe((e) => {
        batch.push(e);
        timer ??= setTimeout(flush, flushMs);
      }),
      session.onTaskEvent((taskId) => {
        // A task event is emitted while its task is live (the registry emits only for live tasks,
        // its end included, before the task leaves the live set): memory holds it.
        const task = session.peekTask(taskId);
        if (task) {
          // Kept before the event goes out: any capsule record sent after it names this task or a later one.
          s.lastTask = lastTaskOf(task, session.id) ?? s.lastTask;
          deps.emit('task.updated', { capsuleId: id, sessionId: session.id, task });
        }
        // The session's counters settle after the event is delivered: read them a tick later,
        // once per burst.
        if (!stateTimer) stateTimer = setTimeout(() => ((stateTimer = undefined), announce(id)), 0);
      }),
      () => clearTimeout(stateTimer),
      // Delegations and turns go to every client, whether it follows this trace or not.
      watchFlow(session, id, deps.emit, flushMs),
      ...(deps.onSession ? [deps.onSession(id, session)] : []),
      () => {
        clearTimeout(timer);
        flush();
      },
    );
    void session.ended.then((reason) => {
      if (s.session !== session) return;
      for (const off of s.unsubscribe.splice(0)) off();
      s.session = undefined;
      const failed = /fail|error|crash/i.test(reason);
      s.state = failed ? 'failed' : 'stopped';
      s.error = failed ? `Session ended: ${reason}` : undefined;
      announce(id);
    });
  };

  return {
    status,
    async launch(id, manifestPath) {
      const s = slot(id);
      if (s.session) return s.session;
      if (s.starting) return s.starting;
      s.state = 'starting';
      s.error = undefined;
      announce(id);
      s.starting = deps.startSession({
        manifestPath,
        recordsRoot: deps.recordsRoot,
        env: deps.env,
        ...(deps.formationFor ? { formation: deps.formationFor(id) } : {}),
      });
      try {
        const session = await s.starting;
        s.session = session;
        s.state = 'idle';
        watchSession(id, s, session);
        announce(id);
        return session;
      } catch (err) {
        const e = launchError(err, id);
        s.state = 'failed';
        s.error = e.message;
        announce(id);
        throw e;
      } finally {
        s.starting = undefined;
      }
    },
    async stop(id) {
      const s = slot(id);
      const session = s.session ?? (await s.starting?.catch(() => undefined));
      if (!session) return;
      s.state = 'stopping';
      announce(id);
      await session.end('stopped from the Studio');
      await session.ended;
    },
    session(id) {
      const session = slots.get(keyOf(dir, id))?.session;
      if (session) return session;
      const name = deps.capsuleName ? deps.capsuleName(id) : id;
      throw new CoreError('not_running', `${name} is not running; launch it first.`);
    },
    running: () => [...slots].filter(([k, s]) => s.session && mine(k)).map(([k]) => idOf(k)),
    setWorkspace(next) {
      dir = next;
    },
    sessionIn: (d, id) => slots.get(keyOf(d, id))?.session,
    runningElsewhere: () => [...slots].filter(([k, s]) => s.session && !mine(k)).length,
    clearFailure(id) {
      const s = slot(id);
      if (s.state !== 'failed' || s.session || s.starting) return;
      s.state = 'stopped';
      s.error = undefined;
      announce(id);
    },
    bySessionId(sessionId) {
      for (const [k, s] of slots) if (s.session?.id === sessionId) return { id: idOf(k), session: s.session };
      return undefined;
    },
    async dispose() {
      // Every workspace's sessions, the ones left running out of sight included.
      await Promise.all(
        [...slots.values()].map(async (s) => {
          const session = s.session ?? (await s.starting?.catch(() => undefined));
          if (session) await session.end('stopped from the Studio').catch(() => undefined);
        }),
      );
    },
  };
}
