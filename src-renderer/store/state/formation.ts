import type { CapsuleView, EdgeView, IssueView, RecentWorkspace, RemoteView } from '../../../src-shared/contract';

// The shape of the store's formation slice, below every slice file so the whole store's type
// (types.ts) can be built from the shapes without importing the slices themselves.

export type ConnectionStatus = 'connecting' | 'ready' | 'no-workspace' | 'error';

export interface FormationSlice {
  connection: ConnectionStatus;
  connectionError: string | null;
  /** Whether the link to the core is up right now (it reconnects by itself when it drops). */
  linked: boolean;
  /** The address the Studio runs at now, when it was started again elsewhere while this page was open (web shell). */
  movedTo: string | null;
  /** The open workspace; `runningElsewhere` counts sessions kept running in workspaces left. */
  workspace: { dir: string; name: string; issues: IssueView[]; runningElsewhere?: number } | null;
  capsules: Record<string, CapsuleView>;
  capsuleIds: string[];
  remotes: Record<string, RemoteView>;
  remoteIds: string[];
  edgeViews: EdgeView[];
  /** The formation.changed version the store holds (null before the first whole formation). */
  formationVersion: number | null;
  /** A formation.changed did not follow the version held: the store asks formation.get. */
  formationBehind: boolean;
  recents: RecentWorkspace[];
  busyAll: boolean;
  setConnection(status: ConnectionStatus, error?: string): void;
  setLinked(up: boolean): void;
  setMoved(url: string): void;
  loadFormation(): Promise<void>;
  loadRecents(): Promise<void>;
  /** `running`: what becomes of the capsules running in the workspace open now (the core stops them by default). */
  openWorkspace(dir: string, running?: 'stop' | 'keep'): Promise<boolean>;
  createWorkspace(dir: string, example: boolean, running?: 'stop' | 'keep'): Promise<boolean>;
  launchAll(): Promise<void>;
  stopAll(): Promise<void>;
  launchCapsule(id: string): Promise<void>;
  stopCapsule(id: string): Promise<void>;
  /** The capsule whose Restart waits for an answer: it is busy (wait for its task, or restart now). */
  restartAsk: string | null;
  /** Restarts at once when idle; when busy, asks first (restartAsk). */
  restartCapsule(id: string): Promise<void>;
  answerRestart(when: 'idle' | 'now' | null): Promise<void>;
  /** Capsules whose restart waits for their task to end. */
  restartsWaiting: string[];
  refreshRemote(id: string): Promise<void>;
}

/** The actions whose code loads on first use (formationActions.ts, see lazyActions.ts). */
export const FORMATION_ACTIONS = [
  'openWorkspace',
  'createWorkspace',
  'restartCapsule',
  'answerRestart',
  'refreshRemote',
] as const;
