import { describeError, invoke } from './client';
import { runLong } from './longCommand';
import type { SliceCreator } from './types';
import type { ForkDelegationDraft, ForkDraft, ForkSlice } from './state/fork';
export type { ForkDelegationDraft, ForkDraft, ForkSlice } from './state/fork';

// Forks in the sessions browser: the "Fork from here" form (from a task there, or a turn in the
// inspector), the opened session's family, and the side-by-side comparison of two runs.

/** The delegations the fork replays (turns before its turn). */
export const replayedDelegations = (d: ForkDraft): ForkDelegationDraft[] =>
  (d.delegations ?? []).filter((x) => x.turn < d.turn);
/** The replayed delegations whose text was edited in the form. */
export const editedDelegations = (d: ForkDraft): ForkDelegationDraft[] =>
  replayedDelegations(d).filter((x) => x.text !== x.recorded);

export const createForkSlice: SliceCreator<ForkSlice> = (set, get) => {
  const fail = (what: string, err: unknown) => get().notify('error', `${what}: ${describeError(err)}`);
  return {
    forkDraft: null,
    family: null,
    comparePick: null,
    comparison: null,
    async openForkForm(d) {
      set({
        comparison: null,
        forkDraft: { ...d, message: d.recorded, driver: d.driver ?? 'real', busy: false, delegations: null },
      });
      const same = (x: ForkDraft | null): x is ForkDraft => !!x && x.sessionId === d.sessionId && x.taskId === d.taskId;
      try {
        const o = await invoke('sessions.forkOptions', { sessionId: d.sessionId, taskId: d.taskId });
        const delegations = (o?.delegations ?? []).map((x) => ({ ...x, recorded: x.text }));
        set((s) =>
          same(s.forkDraft)
            ? { forkDraft: { ...s.forkDraft, delegations, ...(o ? { lastTurn: o.lastTurn } : {}) } }
            : {},
        );
      } catch (err) {
        set((s) => (same(s.forkDraft) ? { forkDraft: { ...s.forkDraft, delegations: [] } } : {}));
        fail('Could not read the recorded delegations', err);
      }
    },
    editForkDraft({ delegation, ...patch }) {
      set((s) => {
        const d = s.forkDraft;
        if (!d) return {};
        const delegations =
          delegation && d.delegations
            ? d.delegations.map((x) => (x.callId === delegation.callId ? { ...x, text: delegation.text } : x))
            : d.delegations;
        return { forkDraft: { ...d, ...patch, delegations } };
      });
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
        const delegations = editedDelegations(d).map(({ callId, text }) => ({ callId, text }));
        const input = {
          sessionId: d.sessionId,
          taskId: d.taskId,
          turn: d.turn,
          driver: d.driver,
          ...(edited ? { message: d.message } : {}),
          ...(delegations.length ? { delegations } : {}),
        };
        // Esc before the fork starts (while the core reads the recorded run) starts nothing; once
        // it runs, Esc stops waiting and the fork's run lands in the sessions browser.
        const r = await runLong('Forking the task', (signal) => invoke('sessions.fork', input, { signal }));
        set({ forkDraft: null, comparison: null });
        const state = r.state.replace('TASK_STATE_', '');
        const short = (id: string) => `…${id.slice(-6)}`;
        get().notify(
          'info',
          `Fork ${short(r.sessionId)} of ${short(d.sessionId)} at turn ${d.turn}: ${state}${r.answer ? ` · ${r.answer.slice(0, 120)}` : ''}`,
        );
        get().showSessions('sessions');
        await get().loadSessions();
        await get().openSession(r.sessionId);
      } catch (err) {
        set((s) => (s.forkDraft ? { forkDraft: { ...s.forkDraft, busy: false } } : {}));
        if ((err as { code?: string }).code === 'canceled')
          get().notify(
            'info',
            'Stopped waiting for the fork: if it had started, it finishes in the background and the sessions browser lists it; if not, nothing ran.',
          );
        else fail('Could not fork', err);
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
