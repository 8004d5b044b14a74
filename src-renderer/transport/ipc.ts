import { CoreError, unwrapReply, type CapsuleBridge, type CoreClient } from '../../src-shared/contract';

/**
 * A CoreClient over the Electron preload bridge (`window.capsule`). IPC has no queue, connection or
 * timeout of its own to manage; an aborted invoke stops waiting here and tells the main process
 * (`bridge.cancel`), which stops the command where it can, as the web shell does.
 */
export function createIpcClient(bridge: CapsuleBridge): CoreClient {
  const unsubscribers = new Set<() => void>();
  let nextCall = 1;
  return {
    async invoke(cmd, input, opts) {
      const signal = opts?.signal;
      const canceled = () => new CoreError('canceled', `${cmd} was canceled.`);
      if (signal?.aborted) throw canceled();
      if (!signal) return unwrapReply(await bridge.invoke(cmd, input)) as never;
      const callId = nextCall++;
      let onAbort = () => undefined as void;
      const aborted = new Promise<never>((_, reject) =>
        signal.addEventListener('abort', (onAbort = () => (bridge.cancel?.(callId), reject(canceled()))), {
          once: true,
        }),
      );
      try {
        return unwrapReply(await Promise.race([bridge.invoke(cmd, input, callId), aborted])) as never;
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
