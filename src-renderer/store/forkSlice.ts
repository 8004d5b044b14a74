import type { ForkDriver, SessionDiffView, SessionFamilyView } from '../../src-shared/contract';
import { describeError, invoke } from './client';
import type { SliceCreator } from './types';

// Forks in the sessions browser: the "Fork from here" form (from a task there, or a turn in the
// inspector), the opened session's family, and the side-by-side comparison of two runs.

/** The fork form, open on a recorded task and turn. */
export interface ForkDraft {
  sessionId: string;
  taskId: string;
  turn: number;
  /** The task's last recorded turn (the latest a fork may start from). */
  lastTurn: number;
  message: string;
  /** The recorded message, to tell whether it was edited. */
  recorded: string;
  driver: ForkDriver;
  busy: boolean;
}

export interface ForkSlice {
  forkDraft: ForkDraft | null;
  /** The family of the session opened in the browser. */
  family: { sessionId: string; view: SessionFamilyView } | null;
  /** The first session picked for a comparison, waiting for the second. */
  comparePick: string | null;
  comparison: SessionDiffView | null;
  openForkForm(draft: Omit<ForkDraft, 'busy' | 'driver' | 'message'> & { driver?: ForkDriver }): void;
  editForkDraft(patch: Partial<Pick<ForkDraft, 'turn' | 'message' | 'driver'>>): void;
  closeForkForm(): void;
  /** Starts the fork; once it has answered, the browser opens the fork's session. */
  startFork(): Promise<void>;
  loadFamily(sessionId: string): Promise<void>;
  pickForCompare(sessionId: string | null): void;
  compareSessions(a: string, b: string): Promise<void>;
  closeComparison(): void;
}

export const createForkSlice: SliceCreator<ForkSlice> = (set, get) => {
  const fail = (what: string, err: unknown) => get().notify('error', `${what}: ${describeError(err)}`);
  return {
    forkDraft: null,
    family: null,
    comparePick: null,
    comparison: null,
    openForkForm(d) {
      set({ comparison: null, forkDraft: { ...d, message: d.recorded, driver: d.driver ?? 'real', busy: false } });
    },
    editForkDraft(patch) {
      set((s) => (s.forkDraft ? { forkDraft: { ...s.forkDraft, ...patch } } : {}));
    },
    closeForkForm() {
      set({ forkDraft: null });
    },
    async startFork() {
      const d = get().forkDraft;
      if (!d || d.busy) return;
      set({ forkDraft: { ...d, busy: true } });
      try {
        const edited = d.message !== d.recorded;
        const r = await invoke('sessions.fork', { sessionId: d.sessionId, taskId: d.taskId, turn: d.turn, driver: d.driver, ...(edited ? { message: d.message } : {}) });
        set({ forkDraft: null, comparison: null });
        const state = r.state.replace('TASK_STATE_', '');
        const short = (id: string) => `…${id.slice(-6)}`;
        get().notify('info', `Fork ${short(r.sessionId)} of ${short(d.sessionId)} at turn ${d.turn}: ${state}${r.answer ? ` · ${r.answer.slice(0, 120)}` : ''}`);
        get().showSessions('sessions');
        await get().loadSessions();
        await get().openSession(r.sessionId);
      } catch (err) {
        set((s) => (s.forkDraft ? { forkDraft: { ...s.forkDraft, busy: false } } : {}));
        fail('Could not fork', err);
      }
    },
    async loadFamily(sessionId) {
      try {
        const view = await invoke('sessions.family', { sessionId });
        if (get().openedSession?.session.id === sessionId) set({ family: { sessionId, view } });
      } catch (err) {
        fail('Could not read the fork family', err);
      }
    },
    pickForCompare(sessionId) {
      set({ comparePick: sessionId });
    },
    async compareSessions(a, b) {
      try {
        const comparison = await invoke('sessions.compare', { a, b });
        set({ comparison, comparePick: null });
      } catch (err) {
        fail('Could not compare the runs', err);
      }
    },
    closeComparison() {
      set({ comparison: null });
    },
  };
};
