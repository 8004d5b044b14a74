import type {
  SessionEventView,
  SessionItemView,
  SessionTaskView,
  TimelineBar,
  TimelineTruncation,
  TraceStoreState,
} from '../../../src-shared/contract';

// The shape of the store's sessions slice, below every slice file so the whole store's type
// (types.ts) can be built from the shapes without importing the slices themselves.

export interface SessionFilter {
  /** An attached runtime whose records (on its host) are listed; '' for this Studio's. */
  runtime: string;
  capsule: string;
  state: '' | 'running' | 'ended' | 'interrupted';
  /** Epoch ms bounds on the session's start, or null. */
  since: number | null;
  until: number | null;
  search: string;
}

/** The session opened in the browser, with its loaded pages of events. */
export interface OpenSession {
  session: SessionItemView;
  tasks: SessionTaskView[];
  /** Shows one task's events only, or all. */
  task: string | null;
  events: SessionEventView[];
  next: number | null;
  total: number | null;
  loading: boolean;
  /** Where the list should stand after a jump: its top, or its end. Bumped per jump. */
  jump?: { to: 'top' | 'end'; n: number };
}

export interface SessionsSlice {
  sessionsView: 'closed' | 'sessions' | 'timeline';
  sessionFilter: SessionFilter;
  sessionList: SessionItemView[];
  sessionsLoading: boolean;
  traceStore: TraceStoreState | null;
  openedSession: OpenSession | null;
  timeline: { around: string; bars: TimelineBar[]; truncated: TimelineTruncation[] } | null;
  showSessions(view: SessionsSlice['sessionsView']): void;
  setSessionFilter(patch: Partial<SessionFilter>): Promise<void>;
  loadSessions(): Promise<void>;
  openSession(sessionId: string): Promise<void>;
  showSessionTask(task: string | null): Promise<void>;
  loadMoreEvents(): Promise<void>;
  /** Unfiltered only: lines before the first loaded one. */
  loadEarlierEvents(): Promise<void>;
  /** Unfiltered only: the window of events starting at line `seq` (0-based), or the last page. */
  jumpToEvent(seq: number | 'end'): Promise<void>;
  loadTimeline(around: string): Promise<void>;
  /** Saves an offline rehearsal of the session (every capsule that took part) in the workspace. */
  makeRehearsal(sessionId: string): Promise<void>;
}

/** The actions whose code loads on first use (sessionsActions.ts, see lazyActions.ts). */
export const SESSIONS_ACTIONS = [
  'loadSessions',
  'openSession',
  'showSessionTask',
  'loadMoreEvents',
  'loadEarlierEvents',
  'jumpToEvent',
  'makeRehearsal',
  'loadTimeline',
] as const;
