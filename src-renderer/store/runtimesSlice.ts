import { invoke } from './client';
import { lazyActions } from './lazyActions';
import type { SliceCreator } from './types';
import { RUNTIME_ACTIONS, type RuntimesSlice } from './state/runtimes';
export type { RuntimesSlice } from './state/runtimes';

// Runtimes on other hosts attached to this Studio: how each link stands (runtimes.changed) and the
// Attach runtime dialog. The token typed in the dialog goes to the core once (runtimes.attach) and
// is never kept here; the core answers with the runtime's URL, label and state only.

export const createRuntimesSlice: SliceCreator<RuntimesSlice> = (set, get, api) => ({
  // Attaching, detaching and connecting across runtimes load on first use (runtimeActions.ts).
  ...lazyActions(RUNTIME_ACTIONS, () => import('./runtimeActions').then((m) => m.createRuntimeActions))(set, get, api),
  runtimes: [],
  attachOpen: false,
  openAttach: () => set({ attachOpen: true }),
  closeAttach: () => set({ attachOpen: false }),
  setRuntimes: (runtimes) => set({ runtimes }),
  async loadRuntimes() {
    try {
      set({ runtimes: await invoke('runtimes.list', {}) });
    } catch {
      // An older core without runtimes: nothing is attached.
    }
  },
  addressAsk: null,
  cancelAddress: () => set({ addressAsk: null }),
});
