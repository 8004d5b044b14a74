import { join } from 'node:path';
import {
  CoreError,
  commands,
  isCommandName,
  MAX_FOLLOWED_SESSIONS,
  toErrorInfo,
  type CommandArgs,
  type CommandInput,
  type CommandName,
  type CommandOutput,
  type EventMap,
  type EventName,
  type FollowAnswer,
  type InvokeOptions,
  type ReplyEnvelope,
} from '../src-shared/contract';
import { startSession as launchSession } from './launch';
import {
  createBreakpoints,
  createCapsuleSessions,
  createExposeService,
  createTunnelService,
  createRecentList,
  createStudioContext,
  createTelemetrySettings,
  telemetryHandlers,
  formationHandlers,
  toolServerHandlers,
  formationResolver,
  runHandlers,
  studioHandlers,
  type CommandCall,
  keepHandlers,
  startWorkspace,
  type Emit,
  type Handlers,
  type StudioConfig,
  type StudioContext,
  type StudioPorts,
} from './workspace';
import { createSecretStore, launchEnv, privateFolder } from './secrets';
import { deployHandlers } from './deploy/studio-commands';
import { testsHandlers } from './regression/studio-commands';
import { createTracesService } from './workspace/traces';
import { createForkService } from './workspace/fork-command';
import { createRuntimes } from './runtimes';
import { createPublishedServing, historyHandlers, recordSaves } from './versions';

// createCore: the Studio service behind the contract. Plain Node (no electron); the shells inject
// platform needs as ports and map `handle` and `subscribe` onto IPC or a WebSocket. Every input is
// parsed with its command's schema here, so both shells validate the same way. Each shell client
// (the desktop window, each web socket) is a connection: it hears every event but trace lines,
// which go only to the connections that follow their session (trace.follow).

export type { StudioConfig as CoreConfig, StudioPorts as CorePorts } from './workspace';

export type CoreListener = <E extends EventName>(event: E, payload: EventMap[E]) => void;

/** One client of the core (a window, a web socket): its own followed sessions. */
export interface CoreConnection {
  /** Runs a command for this client (trace.follow and trace.unfollow apply to it): validates, runs, always answers an envelope; `signal` aborts it. */
  handle(cmd: unknown, input: unknown, signal?: AbortSignal): Promise<ReplyEnvelope>;
  /** The sessions whose trace lines this client receives. */
  following(): string[];
  /** The client went away: it follows nothing and hears nothing more. */
  close(): void;
}

export interface Core {
  /** Settles once the first workspace is open (or failed to open, with a notice). */
  readonly ready: Promise<void>;
  /** Runs a command from an untrusted caller: validates, runs, and always answers an envelope; `signal` aborts it. */
  handle(cmd: unknown, input: unknown, signal?: AbortSignal): Promise<ReplyEnvelope>;
  /** Typed call for in-process users (tests, CLI): throws CoreError. */
  invoke<K extends CommandName>(cmd: K, input: CommandInput<K>, opts?: InvokeOptions): Promise<CommandOutput<K>>;
  /** Every event, every session's trace lines included (in-process users: tests, the CLI, benchmarks). */
  subscribe(listener: CoreListener): () => void;
  /** A shell's client: every event to `send`, trace lines only for the sessions it follows. */
  connect(send: CoreListener): CoreConnection;
  /** How many client connections are open (the shells close theirs when the client goes). */
  connections(): number;
  dispose(): Promise<void>;
}

/** The input parsed with the command's schema, or an invalid_input error naming the field. */
function parseInput<K extends CommandName>(cmd: K, input: unknown): CommandArgs<K> {
  const parsed = commands[cmd].input.safeParse(input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CoreError(
      'invalid_input',
      `${cmd}: ${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`,
    );
  }
  return parsed.data as CommandArgs<K>;
}

const perConnection = (cmd: string) => () => {
  throw new CoreError(
    'invalid_input',
    `${cmd} is answered per client connection (a Studio window or web socket); in-process callers receive every event through subscribe.`,
  );
};

export function createCore(config: StudioConfig, ports: StudioPorts = {}): Core {
  const listeners = new Set<CoreListener>();
  const clients = new Set<CoreConnection>();
  const context: { ctx?: StudioContext } = {};
  const emit: Emit = (event, payload) => {
    // formation.changed diffs start from what clients hold, state patches included.
    if (event === 'capsule.stateChanged') context.ctx?.stateSent(payload as EventMap['capsule.stateChanged']);
    for (const l of listeners) {
      try {
        l(event, payload);
      } catch {
        // A broken listener (a closed socket) must not stop the others.
      }
    }
  };
  // ${NAME} reads the process environment, then the secret store (the shell's, or a user-only file).
  const processEnv = config.env ?? process.env;
  // The Studio's folder holds secrets, tokens and keys: only its owner may enter it. A folder that
  // cannot be made is named by the first store that writes there, in its own words.
  try {
    privateFolder(config.userDataDir);
  } catch {
    /* said later, where it matters */
  }
  const secrets = ports.secrets ?? createSecretStore({ file: join(config.userDataDir, 'secrets.json') });
  // OTEL_* for launched sessions come from the Studio's settings unless its own environment decides.
  const telemetry = createTelemetrySettings(config.userDataDir, secrets, processEnv);
  const cfg: StudioConfig = {
    ...config,
    env: telemetry.env(launchEnv(processEnv, secrets)),
    recordsRoot: config.recordsRoot ?? join(config.userDataDir, 'records'),
  };
  // Breakpoints follow every session from its start; they read the workspace through ctx, made below.
  const breakpoints = createBreakpoints(() => ctx, emit);
  const sessions = createCapsuleSessions({
    startSession: ports.startSession ?? launchSession,
    recordsRoot: cfg.recordsRoot!,
    emit,
    env: cfg.env,
    traceFlushMs: cfg.traceFlushMs,
    formationFor: (id) => formationResolver(ctx, id),
    capsuleName: (id) => ctx.workspace().capsule(id).summary.name ?? id,
    onSession: (id, session) => breakpoints.watch(id, session),
  });
  const ctx = (context.ctx = createStudioContext(cfg, ports, emit, sessions, createRecentList(cfg.userDataDir)));
  // Outside callers get an exposed capsule's published version, served apart from the draft the Studio edits.
  const serving = createPublishedServing({
    dataDir: join(cfg.userDataDir, 'published'),
    startSession: ports.startSession ?? launchSession,
    env: cfg.env,
    recordsRoot: cfg.recordsRoot,
  });
  const expose = createExposeService(ctx, {
    served: (id, draft) => {
      const dir = ctx.current()?.dir;
      return dir ? serving.resolve(dir, id, draft) : Promise.resolve(draft());
    },
  }); // the gateway and its exposures
  const tunnels = createTunnelService(ctx, { expose, env: () => launchEnv(processEnv, secrets) }); // reach from anywhere
  const traces = createTracesService(ctx); // sessions browser and timeline over the trace store
  const forks = createForkService(ctx, { traces, startSession: ports.startSession ?? launchSession }); // fork, family, compare
  // Runtimes on other hosts: their capsules merged into the view clients hold, their commands routed to them.
  const runtimes = createRuntimes({
    userDataDir: cfg.userDataDir,
    tokens: ports.runtimeTokens ?? createSecretStore({ file: join(cfg.userDataDir, 'runtime-tokens.json') }),
    emit,
    republish: () => ctx.republish(),
    localView: () => (ctx.current() ? ctx.view() : undefined),
    local: (cmd, input) => handleHere(cmd, input),
    ...(cfg.runtimeBackoffMs ? { backoffMs: cfg.runtimeBackoffMs } : {}),
  });
  ctx.extendView = runtimes.extend;
  // Every command that saves a workspace file also records a step in the workspace's history.
  const saves = recordSaves(ctx, {
    ...formationHandlers(ctx),
    ...toolServerHandlers(ctx),
    ...runHandlers(ctx),
    ...studioHandlers(ctx, secrets, processEnv),
    // Masked out of kept conversations: every value a manifest's ${NAME} may get, from the store or the environment.
    ...keepHandlers(ctx, {
      secretValues: () =>
        secrets
          .view(processEnv)
          .secrets.flatMap((e) => [secrets.value(e.name), processEnv[e.name]].filter((v): v is string => !!v)),
    }),
    ...expose.handlers,
    ...tunnels.handlers,
    ...deployHandlers(ctx, expose.exposedCapsules),
    ...traces.handlers,
    ...breakpoints.handlers,
    ...forks.handlers,
    ...testsHandlers(ctx, (id) => traces.rehearsalOf(id)),
    ...telemetryHandlers(telemetry, secrets, () => cfg.env!),
    ...runtimes.handlers,
    ...historyHandlers(ctx),
    'trace.follow': perConnection('trace.follow'),
    'trace.unfollow': perConnection('trace.unfollow'),
  });
  const handlers: Handlers = saves.handlers;

  /**
   * Whether the input names something of an attached runtime in a field its command's `route`
   * declares: a capsule id `@<runtime>/<id>` (a capsule of this Studio is named without the `@`), a
   * session a runtime reported, or a `runtime`. Only then the runtimes service is asked where it runs.
   */
  const namesRuntime = (cmd: CommandName, input: unknown): boolean => {
    const route = commands[cmd].route;
    if (route.runs === 'here' || typeof input !== 'object' || input === null) return false;
    const inp = input as Record<string, unknown>;
    return (
      (route.capsules ?? []).some((k) => typeof inp[k] === 'string' && inp[k].startsWith('@')) ||
      (route.sessions ?? []).some((k) => [inp[k]].flat().some((s) => typeof s === 'string' && runtimes.owns(s))) ||
      (!!route.runtime && typeof inp.runtime === 'string')
    );
  };

  const handle = async (cmd: unknown, input: unknown, signal?: AbortSignal): Promise<ReplyEnvelope> => {
    if (isCommandName(cmd) && namesRuntime(cmd, input)) {
      const routed = runtimes.route(cmd, input, signal);
      if (routed) return routed;
    }
    return handleHere(cmd, input, signal);
  };

  /** Runs a command on this Studio's own formation. */
  const handleHere = async (cmd: unknown, input: unknown, signal?: AbortSignal): Promise<ReplyEnvelope> => {
    try {
      if (!isCommandName(cmd)) throw new CoreError('unknown_command', `Unknown command ${String(cmd).slice(0, 80)}`);
      const value = await (handlers[cmd] as (args: unknown, call: CommandCall) => unknown)(parseInput(cmd, input), {
        signal,
      });
      return { ok: true, value: value ?? null };
    } catch (err) {
      return { ok: false, error: toErrorInfo(err) };
    }
  };

  const ready = (async () => {
    try {
      const dir = startWorkspace(cfg, ctx.recent);
      await ctx.open(dir);
    } catch (err) {
      ctx.startupError = toErrorInfo(err).message;
      emit('notice.raised', { level: 'error', message: ctx.startupError });
    }
  })();

  return {
    ready,
    handle,
    async invoke(cmd, input, opts) {
      const reply = await handle(cmd, input, opts?.signal);
      if (!reply.ok) throw new CoreError(reply.error.code, reply.error.message, reply.error.details);
      return reply.value as never;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    connect(send) {
      const followed = new Set<string>();
      const listener: CoreListener = (event, payload) => {
        if (event === 'trace.appended' && !followed.has((payload as EventMap['trace.appended']).sessionId)) return;
        send(event, payload);
      };
      listeners.add(listener);
      const answer = (): FollowAnswer => ({ following: followed.size, max: MAX_FOLLOWED_SESSIONS });
      const follow = async (cmd: 'trace.follow' | 'trace.unfollow', input: unknown): Promise<FollowAnswer> => {
        if (!clients.has(connection)) throw new CoreError('disconnected', 'This client connection is closed.');
        const { sessionId } = parseInput(cmd, input);
        if (cmd === 'trace.unfollow') {
          // A runtime's session: its link stops sending the lines once no client here follows it.
          if (followed.delete(sessionId) && runtimes.owns(sessionId)) runtimes.unfollow(sessionId);
        } else if (!followed.has(sessionId)) {
          if (followed.size >= MAX_FOLLOWED_SESSIONS) {
            throw new CoreError(
              'limit_reached',
              `This client follows ${MAX_FOLLOWED_SESSIONS} sessions already, the most one client may; unfollow one (trace.unfollow) before following ${sessionId}.`,
            );
          }
          followed.add(sessionId);
          if (runtimes.owns(sessionId)) await runtimes.follow(sessionId);
        }
        return answer();
      };
      const connection: CoreConnection = {
        async handle(cmd, input, signal) {
          if (cmd !== 'trace.follow' && cmd !== 'trace.unfollow') return handle(cmd, input, signal);
          try {
            return { ok: true, value: await follow(cmd, input) };
          } catch (err) {
            return { ok: false, error: toErrorInfo(err) };
          }
        },
        following: () => [...followed],
        close() {
          clients.delete(connection);
          listeners.delete(listener);
          for (const sid of followed) if (runtimes.owns(sid)) runtimes.unfollow(sid);
          followed.clear();
        },
      };
      clients.add(connection);
      return connection;
    },
    connections: () => clients.size,
    async dispose() {
      await saves.flush();
      runtimes.dispose();
      ctx.dispose();
      await tunnels.dispose();
      await expose.dispose();
      await serving.dispose();
      await forks.dispose();
      await sessions.dispose();
      await traces.dispose();
      for (const c of [...clients]) c.close();
      listeners.clear();
    },
  };
}
