import { CoreError, unwrapReply, type CapsuleBridge, type CoreClient } from '../../src-shared/contract';

/**
 * A CoreClient over the Electron preload bridge (`window.capsule`). IPC has no queue, connection or
 * timeout of its own to manage; an aborted invoke stops waiting here (Electron's invoke cannot be
 * withdrawn, so the main process finishes the command and its answer is dropped).
 */
export function createIpcClient(bridge: CapsuleBridge): CoreClient {
  const unsubscribers = new Set<() => void>();
  return {
    async invoke(cmd, input, opts) {
      const signal = opts?.signal;
      const canceled = () => new CoreError('canceled', `${cmd} was canceled.`);
      if (signal?.aborted) throw canceled();
      if (!signal) return unwrapReply(await bridge.invoke(cmd, input)) as never;
      let onAbort = () => undefined as void;
      const aborted = new Promise<never>((_, reject) => signal.addEventListener('abort', (onAbort = () => reject(canceled())), { once: true }));
      try {
        return unwrapReply(await Promise.race([bridge.invoke(cmd, input), aborted])) as never;
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
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
