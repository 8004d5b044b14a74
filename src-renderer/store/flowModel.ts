import type { CapsuleView, EdgeView, RemoteView } from '../../src-shared/contract';
import type { DelegationState, DelegationUpdate } from '../../src-shared/trace';

// Which edge of the canvas a delegation crossed, and what an edge keeps of the hops that crossed
// it. Pure: used by the fold of delegation.updated and by the edge's list of recorded tasks.

/** One delegation across an edge. */
export interface EdgeHop {
  /** The delegating task, in the edge's source capsule. */
  taskId: string;
  callId: string;
  /** The task it became in the target, once known. */
  childTaskId?: string;
  state: DelegationState;
  text?: string;
  ts: string;
}

/** What an edge shows of the work that crossed it. */
export interface EdgeFlow {
  /** Delegations on the way now. */
  inFlight: number;
  /** Hops of the latest run (the latest delegating task) that failed or were canceled. */
  failed: number;
  canceled: number;
  /** The delegating task of the latest run: a hop of another task starts a new run, which clears the marks. */
  runTaskId: string;
  /** The newest hops, newest last: every running one and at most MAX_DONE_HOPS ended ones. */
  hops: EdgeHop[];
}

export const MAX_DONE_HOPS = 30;
/** Running hops kept per edge (delegate_task expands to at most 32 calls per call; several tasks may run). */
export const MAX_RUNNING_HOPS = 200;

interface Formation {
  capsules: Record<string, CapsuleView>;
  remotes: Record<string, RemoteView>;
  edgeViews: EdgeView[];
}

/** host:port of a URL, with the scheme's default port written out; loopback names as 127.0.0.1. */
const hostOf = (url: string | undefined): string | undefined => {
  // A bare capsule name has no scheme: new URL would throw, and a throw per edge per hop is slow.
  if (!url || !url.includes(':')) return undefined;
  try {
    const u = new URL(url);
    const host = u.hostname.toLowerCase().replace(/^(localhost|\[::1\])$/, '127.0.0.1');
    return `${host}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
  } catch {
    return undefined;
  }
};

/** Whether an allow entry written as host, host:port or a URL prefix names this host:port. */
function addressNames(address: string, peer: string): boolean {
  const bare = address.toLowerCase();
  const asUrl = hostOf(/^https?:\/\//.test(bare) ? bare : `http://${bare}`);
  if (!asUrl) return false;
  const hasPort = /^https?:\/\//.test(bare) || /:\d+$/.test(bare.replace(/\/.*$/, ''));
  return hasPort ? asUrl === peer : asUrl.replace(/:\d+$/, '') === peer.replace(/:\d+$/, '');
}

/** Whether a delegation of `sourceId` went along edge `e`. */
export function crossed(
  f: Formation,
  sourceId: string,
  d: Pick<DelegationUpdate, 'to' | 'capsule' | 'peerUrl'>,
  e: EdgeView,
): boolean {
  if (e.source !== sourceId) return false;
  const names = [d.to, d.capsule].filter((n): n is string => !!n);
  const peerHost = hostOf(d.peerUrl) ?? hostOf(d.to);
  if (e.targetKind === 'capsule') {
    const c = f.capsules[e.target];
    if (!c) return false;
    if (names.includes(c.name) || names.includes(c.id)) return true;
    // By address: the door it runs on, or the allow entry that draws this edge (a pinned port).
    return !!peerHost && ((!!c.url && hostOf(c.url) === peerHost) || addressNames(e.address, peerHost));
  }
  if (e.targetKind === 'remote') {
    const r = f.remotes[e.target];
    if (!r) return false;
    const hosts = [hostOf(r.url), ...(r.card?.interfaces ?? []).map((i) => hostOf(i.url))];
    return (!!peerHost && hosts.includes(peerHost)) || (!!r.card?.name && names.includes(r.card.name));
  }
  return !!peerHost && addressNames(e.address, peerHost);
}

/** The edge a delegation crossed, or undefined when no edge of the canvas stands for it. */
export function edgeOf(
  f: Formation,
  sourceId: string,
  d: Pick<DelegationUpdate, 'to' | 'capsule' | 'peerUrl'>,
): EdgeView | undefined {
  return f.edgeViews.find((e) => crossed(f, sourceId, d, e));
}

const EMPTY: EdgeFlow = { inFlight: 0, failed: 0, canceled: 0, runTaskId: '', hops: [] };

/** An edge's flow after one delegation update (a new object; the old one is untouched). */
export function withHop(old: EdgeFlow | undefined, d: DelegationUpdate): EdgeFlow {
  const prev = old ?? EMPTY;
  const newRun = prev.runTaskId !== d.taskId && d.state === 'running';
  const i = prev.hops.findIndex((h) => h.taskId === d.taskId && h.callId === d.callId);
  const was = i >= 0 ? prev.hops[i] : undefined;
  const hop: EdgeHop = {
    taskId: d.taskId,
    callId: d.callId,
    state: d.state,
    ts: d.ts,
    ...((d.childTaskId ?? was?.childTaskId) ? { childTaskId: d.childTaskId ?? was?.childTaskId } : {}),
    ...(d.text ? { text: d.text } : {}),
  };
  const hops = i >= 0 ? [...prev.hops.slice(0, i), ...prev.hops.slice(i + 1), hop] : [...prev.hops, hop];
  // Bounded: the oldest ended hops go first, then (past MAX_RUNNING_HOPS) the oldest running ones.
  let done = hops.filter((h) => h.state !== 'running').length;
  let running = hops.length - done;
  const kept = hops.filter((h) => {
    if (h.state !== 'running' && done > MAX_DONE_HOPS) return (done--, false);
    if (h.state === 'running' && running > MAX_RUNNING_HOPS) return (running--, false);
    return true;
  });
  const runTaskId = newRun || !prev.runTaskId ? d.taskId : prev.runTaskId;
  const ofRun = kept.filter((h) => h.taskId === runTaskId);
  return {
    inFlight: kept.filter((h) => h.state === 'running').length,
    failed: ofRun.filter((h) => h.state === 'failed').length,
    canceled: ofRun.filter((h) => h.state === 'canceled').length,
    runTaskId,
    hops: kept,
  };
}

/** The flow once its source's session ended: hops still running count as canceled. */
export function endRunning(flow: EdgeFlow): EdgeFlow {
  let next = flow;
  for (const h of flow.hops)
    if (h.state === 'running')
      next = withHop(next, { ...h, to: '', state: 'canceled', text: h.text ?? 'the session ended' });
  return next;
}
