import { CoreError, type FormationView } from '../../src-shared/contract';
import type { Session, SessionOptions } from '../runtime/api';
import type { SecretStore } from '../secrets';
import type { TunnelProvider } from '../tunnel';
import type { RecentList } from './recent';
import type { CapsuleSessions, Emit } from './sessions';
import { fetchRemoteCard } from './remote-card';
import { formationView, type RemoteCards } from './view';
import { manifestFacts } from './manifest-view';
import { watchFolder, type FolderWatcher } from './watcher';
import { openWorkspaceFolder, type Workspace } from './workspace';
import { createLiveEdits, type LiveEdits } from './live-edits';
import { createFormationPublisher } from './formation-publisher';
import type { CapsuleStatus } from './sessions';

// What the command handlers share: the open workspace (and its watcher), running sessions,
// fetched remote cards, and the event emitter.

export interface StudioConfig {
  /** Where recent workspaces, the example copy and records live. */
  userDataDir: string;
  /** The shipped resources folder (example workspace). */
  resourcesDir: string;
  /** Records root for sessions (default <userDataDir>/records). */
  recordsRoot?: string;
  /** Workspace to open at start; the example copy otherwise. */
  workspace?: string;
  /** Where a relative workspace name is created or opened (default: the user's home). */
  workspacesRoot?: string;
  /** Environment for ${VAR} interpolation (default process.env). */
  env?: Record<string, string | undefined>;
  /**
   * better-sqlite3's native binary for this runtime. Electron needs a build for its own ABI; Node
   * (tests, CLI, web shell) uses the default. Absent or unloadable: traces are read from the files.
   */
  sqliteBinding?: string;
  watchDebounceMs?: number;
  traceFlushMs?: number;
  /** Waits between tries of a lost link to an attached runtime (tests use short ones). */
  runtimeBackoffMs?: number[];
}

/** Platform needs the shells inject (the core itself stays plain Node). */
export interface StudioPorts {
  /** Opens an http(s) URL in the system browser (Electron: shell.openExternal). */
  openExternal?(url: string): Promise<void> | void;
  /** Starts a capsule session (default: the runtime's startSession). */
  startSession?(opts: SessionOptions): Promise<Session>;
  /** Fetches a remote agent card (default: HTTP GET of the well-known card). */
  fetchCard?: typeof fetchRemoteCard;
  /** The system's folder dialog (desktop); undefined when the shell has none (paths are typed). */
  pickFolder?(purpose: 'open' | 'create' | 'export'): Promise<string | undefined>;
  /** Where secrets for ${NAME} are kept (default: a user-only file in the user data folder). */
  secrets?: SecretStore;
  /** The engine behind a tunnel, by provider name (default: cloudflared or ngrok; tests hand in a stand-in). */
  tunnelProvider?(name: string | undefined): TunnelProvider;
  /** Where the tokens of attached runtimes are kept, apart from ${NAME} values (default: a user-only file beside them). */
  runtimeTokens?: SecretStore;
}

export interface StudioContext {
  readonly config: StudioConfig;
  readonly ports: StudioPorts;
  readonly emit: Emit;
  readonly sessions: CapsuleSessions;
  readonly recent: RecentList;
  readonly cards: RemoteCards;
  /** Port following, live policy and "restart to apply" (see live-edits.ts). */
  readonly live: LiveEdits;
  workspace(): Workspace;
  current(): Workspace | undefined;
  /** Opens a workspace; the capsules running in the one open now are stopped, or kept running out of sight. */
  open(dir: string, opts?: { running?: 'stop' | 'keep' }): Promise<FormationView>;
  /** The open workspace when it is `dir`, else a workspace left with capsules running, if any. */
  workspaceAt(dir: string): Workspace | undefined;
  view(): FormationView;
  /** The current view with its version, after sending clients what changed since the last one (formation.get). */
  syncedView(): FormationView;
  /** A capsule.stateChanged went out (formation.changed diffs start from what clients hold). */
  stateSent(status: CapsuleStatus): void;
  /**
   * Emits formation.changed with what changed in the view, after applying what the change means for the
   * running formation (live-edits.ts); returns the running capsules whose policy it changed. `quiet`:
   * the caller tells the user itself.
   */
  changed(opts?: { quiet?: boolean }): string[];
  refreshCard(id: string, url: string): Promise<void>;
  /** What clients see besides the open workspace (the capsules of attached runtimes), merged into every view sent. */
  extendView?: (view: FormationView) => FormationView;
  /** Sends clients what changed in the merged view (an attached runtime's formation changed). */
  republish(): void;
  /** Why the workspace chosen at start could not be opened (named again by no_workspace errors). */
  startupError?: string;
  dispose(): void;
}

export function createStudioContext(
  config: StudioConfig,
  ports: StudioPorts,
  emit: Emit,
  sessions: CapsuleSessions,
  recent: RecentList,
): StudioContext {
  let ws: Workspace | undefined;
  let watcher: FolderWatcher | undefined;
  const cards: RemoteCards = new Map();
  const fetchCard = ports.fetchCard ?? fetchRemoteCard;
  const live = createLiveEdits({ sessions, emit, env: config.env });
  /** Workspaces left with capsules running (their delegations still need their formation). */
  const kept = new Map<string, Workspace>();
  const publisher = createFormationPublisher(emit);
  /** The view clients hold: the workspace's, with the attached runtimes' capsules beside it. */
  const sent = () => (ctx.extendView ? ctx.extendView(ctx.view()) : ctx.view());

  const ctx: StudioContext = {
    config,
    ports,
    emit,
    sessions,
    recent,
    cards,
    live,
    workspace() {
      if (!ws)
        throw new CoreError(
          'no_workspace',
          ctx.startupError
            ? `No workspace is open: ${ctx.startupError}`
            : 'No workspace is open; open or create one first.',
        );
      return ws;
    },
    current: () => ws,
    workspaceAt: (d) => (ws?.dir === d ? ws : kept.get(d)),
    async open(dir, opts = {}) {
      const next = openWorkspaceFolder(dir, config.env);
      watcher?.dispose();
      // Sessions belong to the formation they were launched from: stopped with it, unless the
      // user chose to keep them running (then they come back into view with their workspace).
      if (ws && ws.dir !== next.dir) {
        if (opts.running === 'keep' && sessions.running().length) kept.set(ws.dir, ws);
        else await Promise.all(sessions.running().map((id) => sessions.stop(id).catch(() => undefined)));
      }
      kept.delete(next.dir);
      sessions.setWorkspace(next.dir);
      ws = next;
      cards.clear();
      watcher = watchFolder(
        next.dir,
        () => {
          if (ws !== next) return;
          try {
            if (next.reload()) ctx.changed();
          } catch (err) {
            emit('notice.raised', { level: 'error', message: (err as Error).message });
          }
        },
        (message) => emit('notice.raised', { level: 'warning', message }),
        config.watchDebounceMs,
      );
      recent.remember(next.dir);
      for (const r of next.snapshot().remotes) void ctx.refreshCard(r.id, r.url);
      live.reconcile(next);
      return publisher.publishWhole(sent());
    },
    view: () => {
      const snap = ctx.workspace().snapshot();
      const launchedAs = (id: string) => {
        const session = sessions.sessionIn(snap.dir, id);
        return session ? manifestFacts(session.manifest) : undefined;
      };
      const view = formationView(snap, sessions.status, cards, live.restartReason, launchedAs);
      const elsewhere = sessions.runningElsewhere();
      return elsewhere ? { ...view, runningElsewhere: elsewhere } : view;
    },
    syncedView: () => publisher.publish(sent()),
    stateSent: (status) => publisher.stateSent(status),
    changed(opts) {
      if (!ws) return [];
      const applied = live.reconcile(ws, opts);
      publisher.publish(sent());
      return applied;
    },
    republish() {
      if (ws) publisher.publish(sent());
    },
    async refreshCard(id, url) {
      const result = await fetchCard(url);
      cards.set(id, 'card' in result ? { card: result.card } : { error: result.error });
      ctx.changed();
    },
    dispose() {
      watcher?.dispose();
      watcher = undefined;
    },
  };
  return ctx;
}
