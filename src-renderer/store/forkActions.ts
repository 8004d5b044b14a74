import { describeError, invoke } from './client';
import { editedDelegations } from './forkDrafts';
import { runLong } from './longCommand';
import type { SliceCreator } from './types';
import type { FORK_ACTIONS, ForkDraft, ForkSlice } from './state/fork';

// The fork form's reading of the recording, the fork itself, the family and the comparison of
// two runs: loaded on the first call (forkSlice.ts names them).

export const createForkActions: SliceCreator<Pick<ForkSlice, (typeof FORK_ACTIONS)[number]>> = (set, get) => {
  const fail = (what: string, err: unknown) => get().notify('error', `${what}: ${describeError(err)}`);
  return {
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
    async compareSessions(a, b) {
      try {
        const comparison = await invoke('sessions.compare', { a, b });
        set({ comparison, comparePick: null });
      } catch (err) {
        fail('Could not compare the runs', err);
      }
    },
  };
};
