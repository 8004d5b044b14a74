import type { FormationView } from '../../src-shared/contract';
import { describeError, invoke } from './client';
import { emptyBatch, foldBatch } from './fold';
import type { SliceCreator } from './types';
import type { FormationSlice } from './state/formation';
export type { ConnectionStatus, FormationSlice } from './state/formation';

export const createFormationSlice: SliceCreator<FormationSlice> = (set, get) => {
  /** Runs a command, turning a failure into a notice; returns whether it worked. */
  async function attempt(what: string, run: () => Promise<unknown>): Promise<boolean> {
    try {
      await run();
      return true;
    } catch (err) {
      get().notify('error', `${what}: ${describeError(err)}`);
      return false;
    }
  }
  async function restart(id: string, when: 'idle' | 'now') {
    set((s) => ({ restartsWaiting: [...s.restartsWaiting, id] }));
    await attempt(`Could not restart ${get().capsules[id]?.name ?? id}`, async () => {
      const view = await invoke('capsule.restart', { id, when });
      set((s) => ({ capsules: { ...s.capsules, [id]: view } }));
    });
    set((s) => ({ restartsWaiting: s.restartsWaiting.filter((x) => x !== id) }));
  }
  /** A whole view a command answered: it counts as its version of formation.changed. */
  const applyView = (view: FormationView) =>
    set((s) =>
      foldBatch(s, {
        ...emptyBatch(),
        formations: [{ change: { version: view.version ?? 0, dir: view.dir, full: view }, after: 0 }],
      }),
    );
  let loading: Promise<void> | undefined;

  return {
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
    async launchAll() {
      set({ busyAll: true });
      await attempt('Launch all failed', async () => {
        const result = await invoke('formation.launch', {});
        for (const f of result.failed)
          get().notify('error', `${get().capsules[f.id]?.name ?? f.id} did not launch: ${f.message}`);
      });
      set({ busyAll: false });
    },
    async stopAll() {
      set({ busyAll: true });
      await attempt('Stop all failed', () => invoke('formation.stop', {}));
      set({ busyAll: false });
    },
    async launchCapsule(id) {
      await attempt(`Could not launch ${get().capsules[id]?.name ?? id}`, async () => {
        const view = await invoke('capsule.launch', { id });
        set((s) => ({ capsules: { ...s.capsules, [id]: { ...s.capsules[id], ...view } } }));
      });
    },
    async refreshRemote(id) {
      await attempt('Could not fetch the agent card', async () => {
        const view = await invoke('remote.refresh', { id });
        set((s) => ({ remotes: { ...s.remotes, [id]: view } }));
      });
    },
    async stopCapsule(id) {
      await attempt(`Could not stop ${get().capsules[id]?.name ?? id}`, () => invoke('capsule.stop', { id }));
    },
    restartAsk: null,
    restartsWaiting: [],
    async restartCapsule(id) {
      const c = get().capsules[id];
      if (!c) return;
      if (c.state === 'busy' || c.queued > 0 || c.running) {
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
