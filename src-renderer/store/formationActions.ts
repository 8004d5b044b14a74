import { invoke } from './client';
import { hasWork } from './phase';
import { attempter, viewApplier } from './commandHelpers';
import type { SliceCreator } from './types';
import type { FORMATION_ACTIONS, FormationSlice } from './state/formation';

// Opening or creating another workspace, restarting a capsule (asking first when it is busy) and
// refreshing a remote agent's card: loaded on the first call (formationSlice.ts names them), as
// the first screen does none of them.

export const createFormationActions: SliceCreator<Pick<FormationSlice, (typeof FORMATION_ACTIONS)[number]>> = (
  set,
  get,
) => {
  const attempt = attempter(get);
  const applyView = viewApplier(set);
  async function restart(id: string, when: 'idle' | 'now') {
    set((s) => ({ restartsWaiting: [...s.restartsWaiting, id] }));
    // The core's refusal names the capsule and says why ("Cannot restart writer: …").
    await attempt(null, async () => {
      const view = await invoke('capsule.restart', { id, when });
      set((s) => ({ capsules: { ...s.capsules, [id]: view } }));
    });
    set((s) => ({ restartsWaiting: s.restartsWaiting.filter((x) => x !== id) }));
  }

  return {
    openWorkspace(dir, running) {
      return attempt('Could not open the workspace', async () => {
        applyView(await invoke('workspace.open', { dir, ...(running ? { running } : {}) }));
        get().resetHistory();
        void get().loadRecents();
      });
    },
    createWorkspace(dir, example, running) {
      return attempt('Could not create the workspace', async () => {
        applyView(await invoke('workspace.create', { dir, example, ...(running ? { running } : {}) }));
        get().resetHistory();
        void get().loadRecents();
      });
    },
    async refreshRemote(id) {
      await attempt('Could not fetch the agent card', async () => {
        const view = await invoke('remote.refresh', { id });
        set((s) => ({ remotes: { ...s.remotes, [id]: view } }));
      });
    },
    async restartCapsule(id) {
      const c = get().capsules[id];
      if (!c) return;
      if (hasWork(c)) {
        set({ restartAsk: id });
        return;
      }
      await restart(id, 'now');
    },
    async answerRestart(when) {
      const id = get().restartAsk;
      set({ restartAsk: null });
      if (id && when) await restart(id, when);
    },
  };
};
