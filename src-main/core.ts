import { join } from 'node:path';
import { CoreError, commands, isCommandName, toErrorInfo, type CommandInput, type CommandName, type CommandOutput, type EventMap, type EventName, type ReplyEnvelope } from '../src-shared/contract';
import { startSession as launchSession } from './launch';
import {
  createCapsuleSessions,
  createExposeService,
  createRecentList,
  createStudioContext,
  ensureExampleWorkspace,
  formationHandlers,
  formationResolver,
  runHandlers,
  studioHandlers,
  type Emit,
  type Handlers,
  type StudioConfig,
  type StudioPorts,
} from './workspace';
import { createSecretStore, launchEnv } from './secrets';
import { createTracesService } from './workspace/traces';

// createCore: the Studio service behind the contract. Plain Node (no electron); the shells inject
// platform needs as ports and map `handle` and `subscribe` onto IPC or a WebSocket. Every input is
// parsed with its command's schema here, so both shells validate the same way.

export type { StudioConfig as CoreConfig, StudioPorts as CorePorts } from './workspace';

export type CoreListener = <E extends EventName>(event: E, payload: EventMap[E]) => void;

export interface Core {
  /** Settles once the first workspace is open (or failed to open, with a notice). */
  readonly ready: Promise<void>;
  /** Runs a command from an untrusted caller: validates, runs, and always answers an envelope. */
  handle(cmd: unknown, input: unknown): Promise<ReplyEnvelope>;
  /** Typed call for in-process users (tests, CLI): throws CoreError. */
  invoke<K extends CommandName>(cmd: K, input: CommandInput<K>): Promise<CommandOutput<K>>;
  subscribe(listener: CoreListener): () => void;
  dispose(): Promise<void>;
}

export function createCore(config: StudioConfig, ports: StudioPorts = {}): Core {
  const listeners = new Set<CoreListener>();
  const emit: Emit = (event, payload) => {
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
  const secrets = ports.secrets ?? createSecretStore({ file: join(config.userDataDir, 'secrets.json') });
  const cfg: StudioConfig = { ...config, env: launchEnv(processEnv, secrets), recordsRoot: config.recordsRoot ?? join(config.userDataDir, 'records') };
  const sessions = createCapsuleSessions({
    startSession: ports.startSession ?? launchSession,
    recordsRoot: cfg.recordsRoot!,
    emit,
    env: cfg.env,
    traceFlushMs: cfg.traceFlushMs,
    formationFor: (id) => formationResolver(ctx, id),
  });
  const ctx = createStudioContext(cfg, ports, emit, sessions, createRecentList(cfg.userDataDir));
  const expose = createExposeService(ctx); // the gateway and its exposures
  const traces = createTracesService(ctx); // sessions browser and timeline over the trace store
  const handlers: Handlers = { ...formationHandlers(ctx), ...runHandlers(ctx), ...studioHandlers(ctx, secrets, processEnv), ...expose.handlers, ...traces.handlers };

  const handle = async (cmd: unknown, input: unknown): Promise<ReplyEnvelope> => {
    try {
      if (!isCommandName(cmd)) throw new CoreError('unknown_command', `Unknown command ${String(cmd).slice(0, 80)}`);
      const parsed = commands[cmd].input.safeParse(input ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new CoreError('invalid_input', `${cmd}: ${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
      }
      const value = await (handlers[cmd] as (args: unknown) => unknown)(parsed.data);
      return { ok: true, value: value ?? null };
    } catch (err) {
      return { ok: false, error: toErrorInfo(err) };
    }
  };

  const ready = (async () => {
    try {
      const dir = cfg.workspace ?? ensureExampleWorkspace(cfg.resourcesDir, cfg.userDataDir);
      await ctx.open(dir);
    } catch (err) {
      ctx.startupError = toErrorInfo(err).message;
      emit('notice.raised', { level: 'error', message: ctx.startupError });
    }
  })();

  return {
    ready,
    handle,
    async invoke(cmd, input) {
      const reply = await handle(cmd, input);
      if (!reply.ok) throw new CoreError(reply.error.code, reply.error.message, reply.error.details);
      return reply.value as never;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async dispose() {
      ctx.dispose();
      await expose.dispose();
      await sessions.dispose();
      await traces.dispose();
      listeners.clear();
    },
  };
}
