import { describeError, invoke } from './client';
import type { SliceCreator } from './types';
import type { RuntimesSlice } from './state/runtimes';
export type { RuntimesSlice } from './state/runtimes';

// Runtimes on other hosts attached to this Studio: how each link stands (runtimes.changed) and the
// Attach runtime dialog. The token typed in the dialog goes to the core once (runtimes.attach) and
// is never kept here; the core answers with the runtime's URL, label and state only.

export const createRuntimesSlice: SliceCreator<RuntimesSlice> = (set, get) => ({
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
  async attachRuntime(url, token, label) {
    try {
      const view = await invoke('runtimes.attach', { url, token, ...(label ? { label } : {}) });
      set((s) => ({ runtimes: [...s.runtimes.filter((r) => r.id !== view.id), view] }));
      get().notify(
        'info',
        view.state === 'connected'
          ? `Attached ${view.label}.`
          : `Attached ${view.label}; it is ${view.state}${view.message ? ` (${view.message})` : ''}.`,
      );
      return null;
    } catch (err) {
      return describeError(err);
    }
  },
  addressAsk: null,
  cancelAddress: () => set({ addressAsk: null }),
  async connectAcross(source, target, address) {
    try {
      const answer = await invoke('edge.connect', { source, target, ...(address ? { address } : {}) });
      set({ addressAsk: null });
      get().notify('info', answer.message);
    } catch (err) {
      const details = (err as { details?: { needsAddress?: boolean; port?: number } }).details;
      if (details?.needsAddress)
        set({
          addressAsk: { source, target, message: describeError(err), ...(details.port ? { port: details.port } : {}) },
        });
      else get().notify('error', `Could not connect: ${describeError(err)}`);
    }
  },
  async detachRuntime(id) {
    const label = get().runtimes.find((r) => r.id === id)?.label ?? id;
    try {
      await invoke('runtimes.detach', { id });
      set((s) => ({ runtimes: s.runtimes.filter((r) => r.id !== id) }));
      get().notify('info', `Detached ${label}; its capsules keep running on their host.`);
    } catch (err) {
      get().notify('error', `Could not detach ${label}: ${describeError(err)}`);
    }
  },
});
