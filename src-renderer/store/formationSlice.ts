import { describeError, invoke } from './client';
import { attempter, viewApplier } from './commandHelpers';
import { lazyActions } from './lazyActions';
import type { SliceCreator } from './types';
import { FORMATION_ACTIONS, type FormationSlice } from './state/formation';
export type { ConnectionStatus, FormationSlice } from './state/formation';

export const createFormationSlice: SliceCreator<FormationSlice> = (set, get, api) => {
  const attempt = attempter(get);
  const applyView = viewApplier(set);
  let loading: Promise<void> | undefined;

  return {
    // Opening another workspace, restarting a capsule and refreshing a remote agent's card load on
    // first use (formationActions.ts).
    ...lazyActions(FORMATION_ACTIONS, () => import('./formationActions').then((m) => m.createFormationActions))(
      set,
      get,
      api,
    ),
    connection: 'connecting',
    connectionError: null,
    linked: false,
    movedTo: null,
    workspace: null,
    capsules: {},
    capsuleIds: [],
    remotes: {},
    remoteIds: [],
    edgeViews: [],
    formationVersion: null,
    formationBehind: false,
    recents: [],
    busyAll: false,
    setConnection(status, error) {
      set({ connection: status, connectionError: error ?? null });
    },
    setLinked(up) {
      set({ linked: up });
    },
    setMoved(url) {
      set({ movedTo: url });
    },
    loadFormation() {
      // One formation.get at a time: changes missed while it is on its way are in its answer.
      loading ??= (async () => {
        try {
          applyView(await invoke('formation.get', {}));
        } catch (err) {
          const code = (err as { code?: string }).code;
          // The core says why there is none (e.g. the folder it was asked to open is missing).
          if (code === 'no_workspace' || code === 'workspace_missing')
            set({ connection: 'no-workspace', connectionError: describeError(err) });
          else set({ connection: 'error', connectionError: describeError(err) });
        } finally {
          loading = undefined;
        }
      })();
      return loading;
    },
    async loadRecents() {
      try {
        set({ recents: await invoke('workspace.recent', {}) });
      } catch {
        // Recents are a convenience; the open/create form works without them.
      }
    },
    async launchAll() {
      set({ busyAll: true });
      await attempt('Launch all failed', async () => {
        const result = await invoke('formation.launch', {});
        for (const f of result.failed) get().notify('error', f.message); // the core's message names the capsule and says why
      });
      set({ busyAll: false });
    },
    async stopAll() {
      set({ busyAll: true });
      await attempt('Stop all failed', () => invoke('formation.stop', {}));
      set({ busyAll: false });
    },
    async launchCapsule(id) {
      // The core's refusal names the capsule and says why ("Cannot launch writer: …").
      await attempt(null, async () => {
        const view = await invoke('capsule.launch', { id });
        set((s) => ({ capsules: { ...s.capsules, [id]: { ...s.capsules[id], ...view } } }));
      });
    },
    async stopCapsule(id) {
      await attempt(`Could not stop ${get().capsules[id]?.name ?? id}`, () => invoke('capsule.stop', { id }));
    },
    restartAsk: null,
    restartsWaiting: [],
  };
};
