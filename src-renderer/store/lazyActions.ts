import type { StudioState, SliceCreator } from './types';

// Store actions no first paint needs (the sessions browser's, forks', replay's) keep their code
// out of the window's first JavaScript: the slice names them, and their bodies load on the first
// call of any of them. Until then each is a stand-in that loads the bodies and calls through, so
// its first call answers a promise; once loaded, the real actions take the stand-ins' places in
// the store (a stand-in something else replaced, e.g. a test's, stays replaced).

/** Async actions (each returns a promise) whose code loads on first call. */
type AsyncActions<K extends keyof StudioState> = {
  [N in K]: StudioState[N] extends (...args: infer A) => Promise<infer R> ? (...args: A) => Promise<R> : never;
};

export function lazyActions<K extends keyof StudioState>(
  names: readonly K[],
  load: () => Promise<SliceCreator<Pick<StudioState, K>>>,
): SliceCreator<AsyncActions<K>> {
  return (set, get, api) => {
    const standIns = {} as Record<K, (...args: unknown[]) => Promise<unknown>>;
    let loaded: Promise<Record<K, (...args: unknown[]) => Promise<unknown>>> | undefined;
    const real = () =>
      (loaded ??= load().then((create) => {
        const actions = create(set, get, api) as unknown as Record<K, (...args: unknown[]) => Promise<unknown>>;
        set((s) => {
          const swap: Partial<StudioState> = {};
          for (const n of names) if (s[n] === standIns[n]) Object.assign(swap, { [n]: actions[n] });
          return swap;
        });
        return actions;
      })).catch((err: unknown) => {
        loaded = undefined; // a failed load is tried again by the next call
        throw err;
      });
    for (const n of names) standIns[n] = async (...args) => (await real())[n](...args);
    return standIns as unknown as AsyncActions<K>;
  };
}
