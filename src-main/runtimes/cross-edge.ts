import {
  CoreError,
  splitRuntimeId,
  toErrorInfo,
  type CapsuleView,
  type CommandName,
  type EdgeView,
  type FormationView,
  type ReplyEnvelope,
} from '../../src-shared/contract';
import type { ManifestEditOp } from '../../src-shared/manifest';
import { editManifestSource } from '../manifest';
import { doorPort, hostPort } from './names';

// An edge from a capsule on one host to a capsule on another is the same permission as on one
// host, written where each half lives: the worker's export (and its pinned port) on the worker's
// host, the allow entry on the orchestrator's, as a URL of the worker's door as the orchestrator's
// host reaches it. That address is derived from the runtime's URL when it says where the worker's
// host is; when it cannot say (the worker's runtime is reached over loopback or through a proxy,
// and the orchestrator is elsewhere), the command answers needsAddress and the user gives it.
// Cancel needs nothing more: a canceled task cancels its delegations over A2A at that URL.

export interface CrossCapsule {
  capsule: CapsuleView;
  /** The runtime's Studio URL; undefined for this Studio's own capsule. */
  url?: string;
  runtime?: string;
}

export interface CrossEdgeScope {
  /** A runtime's capsule by its namespaced id. */
  capsule(id: string): CrossCapsule | undefined;
  /** This Studio's own capsule. */
  localCapsule(id: string): CapsuleView | undefined;
  /** Runs a command where the capsule it names lives (this Studio or a runtime). */
  invoke(cmd: CommandName, input: Record<string, unknown>): Promise<unknown>;
  /** The merged view (every edge, for "is the worker still reached from elsewhere"). */
  merged(): FormationView | undefined;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
const hostOf = (url: string | undefined) => (url ? new URL(url).hostname.toLowerCase() : undefined);

function find(scope: CrossEdgeScope, id: string): CrossCapsule {
  if (splitRuntimeId(id)) {
    const c = scope.capsule(id);
    if (!c) throw new CoreError('not_found', `No capsule ${id} in an attached runtime (is its link up?).`);
    return c;
  }
  const c = scope.localCapsule(id);
  if (!c) throw new CoreError('not_found', `No capsule ${id} in this formation.`);
  return { capsule: c };
}

/** The worker's door as the orchestrator's host reaches it, or undefined when that cannot be known. */
export function deriveAddress(orchestrator: CrossCapsule, worker: CrossCapsule, port: number): string | undefined {
  const wHost = hostOf(worker.url);
  const oHost = hostOf(orchestrator.url);
  // Both reached over loopback from here (or one is this Studio's own): the same machine.
  const sameMachine = (wHost === undefined || LOOPBACK.has(wHost)) && (oHost === undefined || LOOPBACK.has(oHost));
  if (sameMachine) return `http://127.0.0.1:${port}`;
  if (wHost && !LOOPBACK.has(wHost) && worker.url?.startsWith('http:') && oHost !== undefined)
    return `http://${wHost.includes(':') ? `[${wHost}]` : wHost}:${port}`;
  return undefined;
}

async function edit(scope: CrossEdgeScope, id: string, ops: ManifestEditOp[]): Promise<void> {
  if (!ops.length) return;
  const read = (await scope.invoke('manifest.read', { id })) as { source: string; hash: string };
  const next = editManifestSource(read.source, ops);
  if (next !== read.source) await scope.invoke('manifest.write', { id, source: next, expected: read.hash });
}

function normalize(address: string, port: number | undefined): string {
  const url = /^https?:\/\//i.test(address) ? address : `http://${address}`;
  const u = new URL(url);
  if (!u.port && port) u.port = String(port);
  return `${u.protocol}//${u.host}`;
}

async function connect(inp: Record<string, unknown>, scope: CrossEdgeScope) {
  const o = find(scope, String(inp.source));
  const w = find(scope, String(inp.target));
  const given = typeof inp.address === 'string' ? inp.address : undefined;
  const port =
    (given ? Number(new URL(normalize(given, undefined)).port) || undefined : undefined) ?? doorPort(w.capsule);
  if (!port)
    throw new CoreError(
      'invalid_input',
      `${w.capsule.name} has no door port yet: launch it or pin network.internal_port, or give its address.`,
      { needsAddress: true },
    );
  const address = given ? normalize(given, port) : deriveAddress(o, w, port);
  if (!address) {
    throw new CoreError(
      'invalid_input',
      `Where does ${o.capsule.name}'s host reach ${w.capsule.name}? Give the address of its door (host:${port}) as that host sees it.`,
      { needsAddress: true, port },
    );
  }
  const workerOps: ManifestEditOp[] = [];
  if (w.capsule.port === null) workerOps.push({ op: 'setInternalPort', port });
  if (!w.capsule.acceptsPeerTasks) workerOps.push({ op: 'setPeerAccept', value: true });
  await edit(scope, w.capsule.id, workerOps);
  await edit(scope, o.capsule.id, [{ op: 'addAllow', entry: address }]);
  const edge: EdgeView = {
    id: `${o.capsule.id}->${w.capsule.id}`,
    source: o.capsule.id,
    target: w.capsule.id,
    targetKind: 'capsule',
    address,
  };
  return {
    edge,
    message: `${o.capsule.name} may now delegate to ${w.capsule.name} on another host at ${address}; ${w.capsule.name} accepts peer tasks there.`,
  };
}

async function disconnect(inp: Record<string, unknown>, scope: CrossEdgeScope) {
  const o = find(scope, String(inp.source));
  const w = find(scope, String(inp.target));
  const view = scope.merged();
  const edges = view?.edges.filter((e) => e.source === o.capsule.id && e.target === w.capsule.id) ?? [];
  const port = doorPort(w.capsule);
  const entries = new Set(edges.map((e) => e.address));
  // An entry naming the worker's port on its host is the edge even when the view is behind.
  if (port)
    for (const a of o.capsule.allow) if (hostPort(a)?.endsWith(`:${port}`) && /^https?:\/\//.test(a)) entries.add(a);
  if (!entries.size) throw new CoreError('not_found', `There is no edge from ${o.capsule.name} to ${w.capsule.name}.`);
  await edit(
    scope,
    o.capsule.id,
    [...entries].map((entry) => ({ op: 'removeAllow', entry })),
  );
  const stillReached = view?.edges.some((e) => e.target === w.capsule.id && e.source !== o.capsule.id) ?? true;
  const revokedExport = !stillReached && w.capsule.acceptsPeerTasks;
  if (revokedExport) await edit(scope, w.capsule.id, [{ op: 'setPeerAccept', value: false }]);
  return { revokedExport, message: `${o.capsule.name} may no longer call ${[...entries].join(', ')}.` };
}

export async function crossEdge(
  cmd: 'edge.connect' | 'edge.disconnect',
  inp: Record<string, unknown>,
  scope: CrossEdgeScope,
): Promise<ReplyEnvelope> {
  try {
    return { ok: true, value: cmd === 'edge.connect' ? await connect(inp, scope) : await disconnect(inp, scope) };
  } catch (err) {
    return { ok: false, error: toErrorInfo(err) };
  }
}
