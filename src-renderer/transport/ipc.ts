import { unwrapReply, type CapsuleBridge, type CoreClient } from '../../src-shared/contract';

/** A CoreClient over the Electron preload bridge (`window.capsule`). */
export function createIpcClient(bridge: CapsuleBridge): CoreClient {
  const unsubscribers = new Set<() => void>();
  return {
    async invoke(cmd, input) {
      return unwrapReply(await bridge.invoke(cmd, input)) as never;
    },
    on(event, listener) {
      const off = bridge.on(event, listener as (payload: unknown) => void);
      unsubscribers.add(off);
      return () => {
        unsubscribers.delete(off);
        off();
      };
    },
    dispose() {
      for (const off of unsubscribers) off();
      unsubscribers.clear();
    },
  };
}
