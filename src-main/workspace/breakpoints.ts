import {
  breakpointId,
  CoreError,
  MAX_BREAKPOINTS,
  MAX_PAUSED_LISTED,
  PAUSE_TIMEOUT_SECONDS,
  type BreakpointSpec,
  type BreakpointsView,
  type BreakpointView,
  type PausedTask,
} from '../../src-shared/contract';
import type { TraceEvent } from '../../src-shared/trace';
import { BreakpointError, sameDoor, type Session, type SessionBreakpoints } from '../runtime';
import type { StudioContext } from './context';
import type { Handlers } from './handlers';
import type { Emit } from './sessions';
import { callDoorMethod } from './task-commands';

// The Studio's breakpoints: held here, per workspace folder, never written into a manifest. Each
// running session gets what concerns it (Session.setBreakpoints) when it starts and whenever the
// set changes, as live policy edits reach it. Which tasks are paused is read from the sessions'
// traces (breakpoint_hit / breakpoint_resumed, masked like every line), so the view says exactly
// what the runtime did. A paused task is resumed on its session directly (the door has no method
// for it: pausing is the Studio's own debugging, not part of A2A); a cancel goes through the door's
// CancelTask, in process, like every other cancel.

export interface BreakpointService {
  /** A session of capsule `capsuleId` started: hand it its breakpoints and follow its pauses. */
  watch(capsuleId: string, session: Session): () => void;
  handlers: Pick<
    Handlers,
    'breakpoints.set' | 'breakpoints.clear' | 'breakpoints.list' | 'breakpoints.configure' | 'breakpoints.resume'
  >;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function createBreakpoints(context: () => StudioContext, emit: Emit): BreakpointService {
  /** Workspace folder -> its breakpoints, by id. */
  const byDir = new Map<string, Map<string, BreakpointView>>();
  /** `<session>\0<task>` -> the pause, and the workspace its capsule belongs to. */
  const paused = new Map<string, PausedTask & { dir: string }>();
  let timeoutSeconds = PAUSE_TIMEOUT_SECONDS.default;

  const dirOf = () => context().workspace().dir;
  const setOf = (dir: string) => {
    let set = byDir.get(dir);
    if (!set) byDir.set(dir, (set = new Map()));
    return set;
  };

  const view = (): BreakpointsView => {
    const dir = context().current()?.dir;
    // Tasks of a workspace left running stay paused out of sight, like its capsules.
    const shown = [...paused.values()].filter((p) => p.dir === dir).map(({ dir: _dir, ...p }) => p);
    return {
      breakpoints: dir ? [...(byDir.get(dir)?.values() ?? [])] : [],
      paused: shown.slice(-MAX_PAUSED_LISTED),
      timeoutSeconds,
    };
  };
  const changed = () => {
    const v = view();
    emit('breakpoints.changed', v);
    return v;
  };

  /** Names and doors a delegation to the edge's target may be addressed with. */
  function targetOf(to: string): { names: string[]; urls: string[] } {
    const ctx = context();
    const snap = ctx.current()?.snapshot();
    if (to.startsWith('external:')) {
      const address = to.slice('external:'.length);
      return { names: [address], urls: [/^https?:\/\//.test(address) ? address : `http://${address}`] };
    }
    const remote = snap?.remotes.find((r) => r.id === to);
    if (remote) return { names: [remote.id], urls: [remote.url] };
    const c = snap?.capsules.find((x) => x.id === to);
    const urls: string[] = [];
    const running = ctx.sessions.status(to).url;
    if (running) urls.push(running);
    if (c?.summary.port) urls.push(`http://127.0.0.1:${c.summary.port}`);
    return { names: [to, ...(c?.summary.name && c.summary.name !== to ? [c.summary.name] : [])], urls };
  }

  function configFor(dir: string, capsuleId: string): SessionBreakpoints | undefined {
    const set = byDir.get(dir);
    if (!set?.size) return undefined;
    const mine = [...set.values()];
    const turn = mine.some((b) => b.kind === 'turn' && b.capsuleId === capsuleId);
    const edges = mine
      .filter((b): b is Extract<BreakpointView, { kind: 'edge' }> => b.kind === 'edge' && b.from === capsuleId)
      .map((b) => targetOf(b.to));
    return turn || edges.length ? { turn, edges, timeoutMs: timeoutSeconds * 1000 } : undefined;
  }

  /** Every running session of the open workspace hears what now concerns it. */
  function push(): void {
    const ctx = context();
    const dir = ctx.current()?.dir;
    if (!dir) return;
    for (const id of ctx.sessions.running()) {
      const session = ctx.sessions.sessionIn(dir, id);
      session?.setBreakpoints(configFor(dir, id));
    }
  }

  function follow(dir: string, capsuleId: string, session: Session, line: TraceEvent): void {
    const e = line as TraceEvent & Record<string, unknown>;
    const taskId = str(e.task_id);
    if (!taskId) return;
    const key = `${session.id}\0${taskId}`;
    if (e.event_type === 'breakpoint_hit') {
      const edge = e.point === 'edge';
      const target = edge ? edgeTarget(capsuleId, str(e.to), str(e.capsule), str(e.peer_url)) : undefined;
      paused.set(key, {
        dir,
        sessionId: session.id,
        capsuleId,
        taskId,
        point: edge ? 'edge' : 'turn',
        ...(typeof e.turn === 'number' ? { turn: e.turn } : {}),
        ...(edge ? { to: str(e.capsule) || str(e.to) } : {}),
        ...(target ? { target } : {}),
        text: str(e.text),
        editable: e.text_chars === undefined,
        since: line.ts,
        timeoutMs: Number(e.timeout_ms) || 0,
      });
      changed();
    } else if (e.event_type === 'breakpoint_resumed' || e.event_type === 'task_end') {
      if (!paused.delete(key)) return;
      changed();
      if (e.by === 'timeout') {
        const name =
          context()
            .current()
            ?.snapshot()
            .capsules.find((c) => c.id === capsuleId)?.summary.name ?? capsuleId;
        emit('notice.raised', {
          level: 'warning',
          message: `A breakpoint in ${name} timed out after ${Math.round(Number(e.waited_ms) / 1000)} s: task ${taskId} went on with its message unchanged.`,
        });
      }
    }
  }

  /** The edge a paused delegation waits on, when one of this capsule's edge breakpoints names its target. */
  function edgeTarget(from: string, to: string, capsule: string, url: string): string | undefined {
    const dir = context().current()?.dir;
    for (const b of byDir.get(dir ?? '')?.values() ?? []) {
      if (b.kind !== 'edge' || b.from !== from) continue;
      const t = targetOf(b.to);
      if (t.names.includes(to) || t.names.includes(capsule) || (url && t.urls.some((u) => sameDoor(u, url))))
        return b.to;
    }
    return undefined;
  }

  return {
    watch(capsuleId, session) {
      const dir = context().current()?.dir ?? '';
      if (dir) session.setBreakpoints(configFor(dir, capsuleId));
      const off = session.trace.subscribe((line) => follow(dir, capsuleId, session, line));
      return () => {
        off();
        let any = false;
        for (const [k, p] of paused) if (p.sessionId === session.id) any = paused.delete(k) || any;
        if (any) changed();
      };
    },
    handlers: {
      'breakpoints.set'(spec) {
        const set = setOf(dirOf());
        checkNodes(context(), spec);
        const id = breakpointId(spec);
        if (!set.has(id) && set.size >= MAX_BREAKPOINTS)
          throw new CoreError(
            'limit_reached',
            `This workspace has ${MAX_BREAKPOINTS} breakpoints already, the most it may hold; clear one first.`,
          );
        set.set(id, { ...spec, id });
        push();
        return changed();
      },
      'breakpoints.clear'(spec) {
        const set = setOf(dirOf());
        if ('all' in spec) set.clear();
        else set.delete(breakpointId(spec));
        push();
        return changed();
      },
      'breakpoints.list': () => view(),
      'breakpoints.configure'({ timeoutSeconds: next }) {
        timeoutSeconds = next;
        push();
        return changed();
      },
      async 'breakpoints.resume'({ sessionId, taskId, action, message }) {
        const ctx = context();
        const running = ctx.sessions.bySessionId(sessionId);
        if (!running) throw new CoreError('not_running', `Session ${sessionId} is not running.`);
        if (action === 'cancel') {
          await callDoorMethod(running.session, 'CancelTask', { id: taskId });
          return view();
        }
        try {
          running.session.resumeBreakpoint(taskId, action, message);
        } catch (err) {
          if (err instanceof BreakpointError) throw new CoreError('invalid_input', err.message);
          throw err;
        }
        return view();
      },
    },
  };
}

/** A breakpoint names nodes of the open formation. */
function checkNodes(ctx: StudioContext, spec: BreakpointSpec): void {
  const snap = ctx.workspace().snapshot();
  const isCapsule = (id: string) => snap.capsules.some((c) => c.id === id);
  if (spec.kind === 'turn') {
    if (!isCapsule(spec.capsuleId)) throw new CoreError('not_found', `No capsule ${spec.capsuleId} in this formation.`);
    return;
  }
  if (!isCapsule(spec.from)) throw new CoreError('not_found', `No capsule ${spec.from} in this formation.`);
  if (!spec.to.startsWith('external:') && !isCapsule(spec.to) && !snap.remotes.some((r) => r.id === spec.to))
    throw new CoreError('not_found', `No capsule or remote agent ${spec.to} in this formation.`);
}
