import type { CommandInput, CommandName, CommandOutput, CoreClient, InvokeOptions } from '../../src-shared/contract';

// The one CoreClient the store talks through. It is set once at boot (main.tsx) or by a test;
// components never hold it, they call store actions.

let current: CoreClient | null = null;

/** Installs the client the store's actions use. */
export function setCoreClient(client: CoreClient | null): void {
  current = client;
}

/** Runs a command on the core; rejects with a CoreError (code + message) from the reply envelope, `canceled` once `signal` aborts. */
export function invoke<K extends CommandName>(
  cmd: K,
  input: CommandInput<K>,
  opts?: InvokeOptions,
): Promise<CommandOutput<K>> {
  if (!current) return Promise.reject(new Error('The Studio is not connected to its core yet.'));
  return current.invoke(cmd, input, opts);
}

/** A user-facing sentence for anything a command threw. */
export function describeError(err: unknown): string {
  if (err && typeof err === 'object' && 'message' in err && typeof (err as { message: unknown }).message === 'string') {
    return (err as { message: string }).message;
  }
  return String(err);
}

/** A feature's own live view (the Expose panel's access log) listens to one core event. */
export function onCoreEvent<E extends import('../../src-shared/contract').EventName>(
  event: E,
  listener: (payload: import('../../src-shared/contract').EventPayload<E>) => void,
): () => void {
  return current ? current.on(event, listener) : () => undefined;
}
