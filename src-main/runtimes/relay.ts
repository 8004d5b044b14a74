import {
  checkedLastTask,
  withCapsuleState,
  type CapsuleView,
  type CommandName,
  type EventMap,
  type EventName,
  type FormationView,
} from '../../src-shared/contract';
import type { Namer } from './names';

// What a runtime's answers and events become here: its capsule ids namespaced (see names.ts), its
// sessions remembered as its own (so trace.tail, trace.follow and the sessions browser for them go
// back to it), and nothing else changed. Session ids are unique across hosts and stay as they are.

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 400;

export interface RelayScope {
  namer: Namer;
  /** A session of this runtime was seen. */
  remember(sessionId: unknown): void;
}

const renameCapsuleId = (s: RelayScope) => (x: unknown) => {
  if (!isObj(x)) return x;
  s.remember(x.id);
  return str(x.capsuleId) ? { ...x, capsuleId: s.namer.id(x.capsuleId) } : x;
};

/** An exposure or access entry of the runtime's gateway with its capsule named as here. */
const exposure = (s: RelayScope) => (e: Obj) => ({ ...e, capsuleId: s.namer.id(String(e.capsuleId)) });
const accessEntry = (s: RelayScope) => (e: unknown) =>
  isObj(e) && str(e.capsule) ? { ...e, capsule: s.namer.id(e.capsule) } : e;

/** How each command's answer is named for this Studio; commands not named answer as they are. */
const outputs: Partial<Record<CommandName, (v: Obj, s: RelayScope) => unknown>> = {
  'capsule.add': (v, s) => capsule(v, s),
  'capsule.duplicate': (v, s) => capsule(v, s),
  'capsule.launch': (v, s) => capsule(v, s),
  'capsule.restart': (v, s) => capsule(v, s),
  'remote.refresh': (v, s) => s.namer.remote(v as never),
  'edge.connect': (v, s) => ({ ...v, edge: s.namer.edge(v.edge as never) }),
  'manifest.read': (v, s) => ({ ...v, id: s.namer.id(String(v.id)) }),
  'formation.launch': (v, s) => ({
    launched: (v.launched as string[]).map(s.namer.id),
    failed: (v.failed as { id: string; message: string }[]).map((f) => ({ ...f, id: s.namer.id(f.id) })),
  }),
  'formation.stop': (v, s) => ({ stopped: (v.stopped as string[]).map(s.namer.id) }),
  'sessions.list': (v, s) => ({ ...v, sessions: (v.sessions as unknown[]).map(renameCapsuleId(s)) }),
  'sessions.get': (v, s) => ({ ...v, session: renameCapsuleId(s)(v.session) }),
  'sessions.family': (v, s) => ({
    ...v,
    ancestors: (v.ancestors as unknown[]).map(renameCapsuleId(s)),
    forks: (v.forks as unknown[]).map(renameCapsuleId(s)),
  }),
  'sessions.compare': (v, s) => ({ ...v, a: renameCapsuleId(s)(v.a), b: renameCapsuleId(s)(v.b) }),
  'sessions.fork': (v, s) => {
    s.remember(v.sessionId); // the fork runs on the runtime: its trace and tasks come from there
    return v;
  },
  'sessions.timeline': (v, s) => {
    for (const b of (v.bars as Obj[]) ?? []) s.remember(b.sessionId);
    return v;
  },
  'expose.list': (v, s) => ({ ...v, exposures: (v.exposures as Obj[]).map(exposure(s)) }),
  'expose.enable': (v, s) => ({
    ...v,
    exposure: { ...(v.exposure as Obj), capsuleId: s.namer.id(String((v.exposure as Obj).capsuleId)) },
  }),
  'expose.rotate': (v, s) => ({
    ...v,
    exposure: { ...(v.exposure as Obj), capsuleId: s.namer.id(String((v.exposure as Obj).capsuleId)) },
  }),
  'expose.update': (v, s) => ({ ...v, capsuleId: s.namer.id(String(v.capsuleId)) }),
};

function capsule(v: Obj, s: RelayScope): CapsuleView {
  s.remember(v.sessionId);
  return s.namer.capsule(v as unknown as CapsuleView);
}

export function relayOutput(cmd: CommandName, value: unknown, s: RelayScope): unknown {
  // The access log is the one answer that is a list.
  if (cmd === 'expose.accessLog' && Array.isArray(value)) return value.map(accessEntry(s));
  const f = outputs[cmd];
  if (!f || !isObj(value)) return value;
  try {
    return f(value, s);
  } catch {
    return value; // an answer of another shape (an older runtime) goes through as it is
  }
}

/** A runtime's capsule after a capsule.stateChanged, with the fields the clients' fold sets. */
export function patchState(view: FormationView, p: EventMap['capsule.stateChanged']): FormationView {
  if (!view.capsules.some((c) => c.id === p.id)) return view;
  return { ...view, capsules: view.capsules.map((c) => (c.id === p.id ? withCapsuleState(c, p) : c)) };
}

/**
 * A runtime's event as this Studio emits it, or undefined for the events that stay on its host
 * (its formation, folded by the service; its own attached runtimes). Its gateway's events come
 * tagged with the runtime, so the Expose panel never takes them for this Studio's gateway.
 */
export function relayEvent(
  event: string,
  payload: unknown,
  s: RelayScope,
  label: string,
): { event: EventName; payload: unknown } | undefined {
  if (!isObj(payload)) return undefined;
  switch (event) {
    case 'capsule.stateChanged': {
      if (!str(payload.id)) return undefined;
      s.remember(payload.sessionId);
      const { lastTask, ...rest } = payload;
      const last = checkedLastTask(lastTask);
      return { event, payload: { ...rest, id: s.namer.id(payload.id), ...(last ? { lastTask: last } : {}) } };
    }
    case 'task.updated':
    case 'task.progressed':
    case 'delegation.updated':
    case 'trace.appended':
      if (!str(payload.sessionId)) return undefined;
      s.remember(payload.sessionId);
      return {
        event,
        payload: str(payload.capsuleId) ? { ...payload, capsuleId: s.namer.id(payload.capsuleId) } : payload,
      };
    case 'manifest.conflicted':
      return str(payload.id) ? { event, payload: { ...payload, id: s.namer.id(payload.id) } } : undefined;
    case 'exposure.accessed':
      return isObj(payload.entry)
        ? { event, payload: { entry: accessEntry(s)(payload.entry), runtime: s.namer.runtime } }
        : undefined;
    case 'exposure.changed':
      if (!isObj(payload.gateway) || !Array.isArray(payload.exposures)) return undefined;
      return {
        event,
        payload: {
          gateway: payload.gateway,
          exposures: payload.exposures.filter(isObj).map(exposure(s)),
          runtime: s.namer.runtime,
        },
      };
    case 'notice.raised':
      return str(payload.message) || typeof payload.message === 'string'
        ? { event, payload: { ...payload, message: `${label}: ${String(payload.message).slice(0, 2000)}` } }
        : undefined;
    default:
      return undefined;
  }
}
