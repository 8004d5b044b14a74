import { describeError, invoke } from './client';
import type { SliceCreator } from './types';
import type { RUNTIME_ACTIONS, RuntimesSlice } from './state/runtimes';

// Attaching a runtime, detaching one and drawing an edge across two: loaded on the first call
// (runtimesSlice.ts names them), as the first screen attaches nothing.

export const createRuntimeActions: SliceCreator<Pick<RuntimesSlice, (typeof RUNTIME_ACTIONS)[number]>> = (
  set,
  get,
) => ({
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
