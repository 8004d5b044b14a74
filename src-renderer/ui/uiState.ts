import { useSyncExternalStore } from 'react';

// A piece of UI-only state several components read (which overlay is open): no store slice,
// since nothing in the core or the folds cares.

export interface UiState<T> {
  get(): T;
  set(value: T): void;
  use(): T;
}

export function createUiState<T>(initial: T): UiState<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  const subscribe = (l: () => void) => {
    listeners.add(l);
    return () => void listeners.delete(l);
  };
  return {
    get: () => value,
    set(next) {
      if (Object.is(next, value)) return;
      value = next;
      listeners.forEach((l) => l());
    },
    use: () => useSyncExternalStore(subscribe, () => value),
  };
}
