import {
  applyFormationChange,
  commands,
  CoreError,
  MAX_RUNTIMES,
  splitRuntimeId,
  toErrorInfo,
  type CapsuleView,
  type CommandName,
  type EventMap,
  type FormationChange,
  type FormationView,
  type ReplyEnvelope,
  type RuntimeView,
} from '../../src-shared/contract';
import type { SecretStore } from '../secrets';
import type { Emit, Handlers } from '../workspace';
import { createRuntimeLink, type RuntimeLink } from './link';
import { createNamer, doorPort, linkAcross, type Namer } from './names';
import { patchState, relayEvent, relayOutput, type RelayScope } from './relay';
import { readRuntimeSettings, runtimeTokenName, writeRuntimeSettings, type RuntimeSetting } from './settings';
import { crossEdge, type CrossEdgeScope } from './cross-edge';

// The runtimes on other hosts this Studio is attached to. The core holds the links (the token
// stays here and in the secret store: never in an answer, an event, a trace or a log), merges
// their formations into the one view the canvas draws, sends every command that names one of
// their capsules or sessions to that runtime, and relays its events back under namespaced ids.
// A link that drops is shown lost and retried; the capsules stay in view as last known and keep
// running on their host, and on reconnect the Studio reads their formation again.

/** Sessions remembered as a runtime's (for trace.tail, follow and the sessions browser): the newest this many. */
const MAX_REMEMBERED_SESSIONS = 20_000;
/** How long runtimes.attach waits for the first answer of a new runtime (then it answers "connecting"). */
const ATTACH_WAIT_MS = 10_000;

interface Runtime {
  setting: RuntimeSetting;
  link: RuntimeLink;
  namer: Namer;
  view?: FormationView;
  /** Per capsule of the runtime's view, the same capsule named here (identity kept while unchanged). */
  named: WeakMap<object, unknown>;
  /** Sessions this Studio's clients follow on the runtime, with how many clients follow each. */
  follows: Map<string, number>;
  scope: RelayScope;
}

export interface RuntimesOptions {
  userDataDir: string;
  tokens: SecretStore;
  emit: Emit;
  /** An attached runtime's formation changed: send clients the merged view's change. */
  republish(): void;
  /** The open workspace's view (the canvas area new runtimes stand below). */
  localView(): FormationView | undefined;
  /** Runs a command on this Studio's own formation (the half of an edge across hosts that is here). */
  local(cmd: CommandName, input: unknown): Promise<ReplyEnvelope>;
  backoffMs?: number[];
}

export interface RuntimesService {
  handlers: Pick<Handlers, 'runtimes.list' | 'runtimes.attach' | 'runtimes.detach'>;
  /** The answer of a command for a runtime's capsule or session, or undefined when it is this Studio's own; `signal` cancels it there. */
  route(cmd: CommandName, input: unknown, signal?: AbortSignal): Promise<ReplyEnvelope> | undefined;
  /** The open workspace's view with the attached runtimes' capsules beside it. */
  extend(view: FormationView): FormationView;
  /** Whether a session is a runtime's (its trace lines come over that runtime's link). */
  owns(sessionId: string): boolean;
  follow(sessionId: string): Promise<void>;
  unfollow(sessionId: string): void;
  dispose(): void;
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 24) || 'runtime'
  );
}

export function createRuntimes(opts: RuntimesOptions): RuntimesService {
  const runtimes = new Map<string, Runtime>();
  const sessions = new Map<string, string>(); // session id -> runtime id, oldest first
  let disposed = false;

  const remember = (rt: string) => (sid: unknown) => {
    if (typeof sid !== 'string' || !/^ses_[0-9a-f]{32}$/.test(sid)) return;
    sessions.delete(sid);
    sessions.set(sid, rt);
    if (sessions.size > MAX_REMEMBERED_SESSIONS) sessions.delete(sessions.keys().next().value!);
  };

  const viewOf = (r: Runtime): RuntimeView => {
    const s = r.link.status();
    return {
      id: r.setting.id,
      label: r.setting.label,
      url: r.setting.url,
      state: s.state,
      ...(s.retryInS !== undefined ? { retryInS: s.retryInS } : {}),
      ...(s.message ? { message: s.message } : {}),
      capsules: r.view?.capsules.length ?? 0,
      ...(r.view ? { dir: r.view.dir } : {}),
    };
  };
  const list = () => [...runtimes.values()].map(viewOf);
  const changed = () => {
    if (!disposed) opts.emit('runtimes.changed', { runtimes: list() });
  };
  const save = () =>
    writeRuntimeSettings(
      opts.userDataDir,
      [...runtimes.values()].map((r) => r.setting),
    );

  async function readFormation(r: Runtime) {
    try {
      const view = (await r.link.invoke('formation.get', {})) as FormationView;
      for (const c of view.capsules) r.scope.remember(c.sessionId);
      r.view = view;
      opts.republish();
      changed();
    } catch {
      // The link dropped again: its status says so, and the next open reads it.
    }
  }

  function onEvent(r: Runtime, event: string, payload: unknown) {
    if (event === 'formation.changed') {
      const next = r.view && applyFormationChange(r.view, payload as FormationChange);
      if (!next) return void readFormation(r);
      const count = r.view?.capsules.length;
      r.view = next;
      opts.republish();
      if (next.capsules.length !== count) changed();
      return;
    }
    if (event === 'capsule.stateChanged' && r.view)
      r.view = patchState(r.view, payload as EventMap['capsule.stateChanged']);
    const out = relayEvent(event, payload, r.scope, r.setting.label);
    if (out) opts.emit(out.event, out.payload as never);
  }

  function start(setting: RuntimeSetting, token: string | undefined): Runtime {
    const namer = createNamer(setting.id, setting.offset);
    const r: Runtime = {
      setting,
      namer,
      named: new WeakMap(),
      follows: new Map(),
      scope: { namer, remember: remember(setting.id) },
      link: undefined as unknown as RuntimeLink,
    };
    r.link = createRuntimeLink({
      url: setting.url,
      token: token ?? '',
      backoffMs: opts.backoffMs,
      onOpen() {
        void readFormation(r);
        for (const sid of r.follows.keys())
          void r.link.invoke('trace.follow', { sessionId: sid }).catch(() => undefined);
      },
      onEvent: (event, payload) => onEvent(r, event, payload),
      onStatus: changed,
    });
    runtimes.set(setting.id, r);
    return r;
  }

  for (const s of readRuntimeSettings(opts.userDataDir)) {
    let token: string | undefined;
    try {
      token = opts.tokens.value(runtimeTokenName(s.id));
    } catch {
      token = undefined; // a damaged store: the link is refused and says so
    }
    start(s, token);
  }

  const named = <T extends object>(r: Runtime, x: T, f: (x: T) => T): T => {
    let y = r.named.get(x) as T | undefined;
    if (!y) r.named.set(x, (y = f(x)));
    return y;
  };

  function extend(local: FormationView): FormationView {
    if (!runtimes.size) return local;
    const capsules = [...local.capsules];
    const remotes = [...local.remotes];
    const edges = [...local.edges];
    const doors = new Map<string, string>();
    for (const r of runtimes.values()) {
      if (!r.view) continue;
      const host = new URL(r.setting.url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
      const hosts = ['127.0.0.1', 'localhost', '::1'].includes(host) ? ['127.0.0.1', 'localhost'] : [host];
      for (const c of r.view.capsules) {
        const n = named(r, c, r.namer.capsule);
        capsules.push(n);
        const port = doorPort(c);
        if (port) for (const h of hosts) doors.set(`${h}:${port}`, n.id);
      }
      for (const x of r.view.remotes) remotes.push(named(r, x, r.namer.remote));
      for (const e of r.view.edges) edges.push(named(r, e, r.namer.edge));
    }
    return { ...local, capsules, remotes, edges: linkAcross(edges, doors) };
  }

  /** The runtimes a command's input names (by its declared capsule and session fields), '' for this Studio. */
  function owners(cmd: CommandName, inp: Record<string, unknown>): Set<string> {
    const route = commands[cmd].route;
    const found = new Set<string>();
    for (const k of route.capsules ?? [])
      if (typeof inp[k] === 'string') found.add(splitRuntimeId(inp[k] as string)?.runtime ?? '');
    for (const k of route.sessions ?? [])
      for (const sid of [inp[k]].flat()) if (typeof sid === 'string') found.add(sessions.get(sid) ?? '');
    if (route.runtime && typeof inp.runtime === 'string') found.add(inp.runtime);
    return found;
  }

  async function forward(
    r: Runtime,
    cmd: CommandName,
    inp: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<ReplyEnvelope> {
    try {
      const raw: Record<string, unknown> = { ...inp };
      delete raw.runtime;
      for (const k of commands[cmd].route.capsules ?? [])
        if (typeof raw[k] === 'string') raw[k] = splitRuntimeId(raw[k] as string)?.id ?? raw[k];
      const pos = raw.position as { x?: unknown; y?: unknown } | undefined;
      if (pos && typeof pos.x === 'number' && typeof pos.y === 'number')
        raw.position = r.namer.toRuntime({ x: pos.x, y: pos.y });
      // The same schema as for this Studio's own capsules: the boundary is here too.
      const parsed = commands[cmd].input.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new CoreError(
          'invalid_input',
          `${cmd}: ${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`,
        );
      }
      const value = await r.link.invoke(cmd, parsed.data, { signal });
      return { ok: true, value: relayOutput(cmd, value, r.scope) ?? null };
    } catch (err) {
      return { ok: false, error: toErrorInfo(err) };
    }
  }

  const crossScope: CrossEdgeScope = {
    capsule(id) {
      const split = splitRuntimeId(id);
      const r = split && runtimes.get(split.runtime);
      const c = r?.view?.capsules.find((x) => x.id === split!.id);
      if (!c || !r) return undefined;
      return { capsule: named(r, c, r.namer.capsule) as CapsuleView, url: r.setting.url, runtime: r.setting.id };
    },
    localCapsule: (id) => opts.localView()?.capsules.find((c) => c.id === id),
    invoke: async (cmd, input) => {
      const reply = await (route(cmd, input) ?? opts.local(cmd, input));
      if (!reply.ok) throw new CoreError(reply.error.code, reply.error.message, reply.error.details);
      return reply.value;
    },
    merged: () => {
      const local = opts.localView();
      return local && extend(local);
    },
  };

  /** Where a command runs is the contract's declaration (its `route`); only the owner of what it names is looked up here. */
  function route(cmd: CommandName, input: unknown, signal?: AbortSignal): Promise<ReplyEnvelope> | undefined {
    const declared = commands[cmd].route;
    if (declared.runs === 'here' || typeof input !== 'object' || input === null || Array.isArray(input))
      return undefined;
    const inp = input as Record<string, unknown>;
    const found = owners(cmd, inp);
    const remote = [...found].filter((x) => x !== '');
    if (!remote.length) return undefined;
    if (declared.runs === 'hereOnly')
      return Promise.resolve({
        ok: false,
        error: new CoreError(
          'invalid_input',
          `${cmd} is not available for capsules on other hosts yet (${remote[0]}); run it on that host.`,
        ).toInfo(),
      });
    if (found.size > 1) {
      if (declared.across && (cmd === 'edge.connect' || cmd === 'edge.disconnect'))
        return crossEdge(cmd, inp, crossScope);
      return Promise.resolve({
        ok: false,
        error: {
          code: 'invalid_input',
          message: `${cmd} names capsules or sessions of different runtimes; it runs on one.`,
        },
      });
    }
    const r = runtimes.get(remote[0]);
    if (!r)
      return Promise.resolve({
        ok: false,
        error: { code: 'not_found', message: `No runtime ${remote[0]} is attached.` },
      });
    return forward(r, cmd, inp, signal);
  }

  function waitSettled(r: Runtime): Promise<void> {
    return new Promise((done) => {
      const t0 = Date.now();
      const tick = () => {
        const s = r.link.status().state;
        if ((s !== 'connecting' && (s !== 'connected' || r.view)) || Date.now() - t0 > ATTACH_WAIT_MS || disposed)
          return done();
        setTimeout(tick, 50);
      };
      tick();
    });
  }

  function detach(id: string) {
    const r = runtimes.get(id);
    if (!r) throw new CoreError('not_found', `No runtime ${id} is attached.`);
    r.link.close();
    runtimes.delete(id);
    for (const [sid, rt] of sessions) if (rt === id) sessions.delete(sid);
    try {
      opts.tokens.delete(runtimeTokenName(id));
    } catch {
      // no token kept (it was never stored, or the store was reset)
    }
    save();
    opts.republish();
    changed();
  }

  const handlers: RuntimesService['handlers'] = {
    'runtimes.list': () => list(),
    async 'runtimes.attach'({ url, token, label }) {
      const u = new URL(url);
      if (u.username || u.password)
        throw new CoreError('invalid_input', 'Give the token in its own field, not in the URL.');
      const clean = `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
      if ([...runtimes.values()].some((r) => r.setting.url === clean))
        throw new CoreError(
          'conflict',
          `${clean} is attached already (detach it to attach it again with another token).`,
        );
      if (runtimes.size >= MAX_RUNTIMES)
        throw new CoreError('limit_reached', `${MAX_RUNTIMES} runtimes are attached, the most one Studio holds.`);
      const name = label ?? u.host;
      let id = slug(name);
      for (let i = 2; runtimes.has(id); i++) id = `${slug(name).slice(0, 20)}-${i}`;
      // A new runtime's area stands below everything on the canvas now.
      const all = extend(opts.localView() ?? { dir: '', name: '', capsules: [], remotes: [], edges: [], issues: [] });
      const bottom = Math.max(0, ...all.capsules.map((c) => c.position.y), ...all.remotes.map((x) => x.position.y));
      const setting: RuntimeSetting = { id, label: name, url: clean, offset: { x: 0, y: Math.round(bottom + 320) } };
      const r = start(setting, token);
      await waitSettled(r);
      if (r.link.status().state === 'refused') {
        const why = r.link.status().message ?? 'refused';
        r.link.close();
        runtimes.delete(id);
        changed();
        throw new CoreError('remote_unreachable', `${clean} ${why}; nothing was attached.`, { refused: true });
      }
      opts.tokens.set(runtimeTokenName(id), token);
      save();
      changed();
      return viewOf(r);
    },
    'runtimes.detach': ({ id }) => detach(id),
  };

  return {
    handlers,
    route,
    extend,
    owns: (sid) => sessions.has(sid),
    async follow(sid) {
      const r = runtimes.get(sessions.get(sid) ?? '');
      if (!r) return;
      const n = r.follows.get(sid) ?? 0;
      r.follows.set(sid, n + 1);
      // While the link is down the follow waits: the link follows again when it comes back.
      if (n === 0) await r.link.invoke('trace.follow', { sessionId: sid }).catch(() => undefined);
    },
    unfollow(sid) {
      const r = runtimes.get(sessions.get(sid) ?? '');
      const n = r?.follows.get(sid);
      if (!r || !n) return;
      if (n > 1) return void r.follows.set(sid, n - 1);
      r.follows.delete(sid);
      void r.link.invoke('trace.unfollow', { sessionId: sid }).catch(() => undefined);
    },
    dispose() {
      disposed = true;
      for (const r of runtimes.values()) r.link.close();
      runtimes.clear();
    },
  };
}
