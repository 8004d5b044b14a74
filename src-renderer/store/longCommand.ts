import { useSyncExternalStore } from 'react';

// Commands that can take long (a test run, a publish with its tests, a fork) run through
// `runLong`: while one waits, the Studio shows it with "Esc to cancel" (app/LongCommandBar.tsx),
// and Esc, or the bar's Cancel, aborts the invoke. The core is told and stops the work where it
// can; the command then rejects with a CoreError `canceled`.

export interface LongCommand {
  id: number;
  /** What runs, for the bar: "Running test checkout". */
  label: string;
}

interface Running extends LongCommand {
  abort: AbortController;
}

let running: Running[] = [];
let snapshot: LongCommand | null = null;
let nextId = 1;
const listeners = new Set<() => void>();

const changed = () => {
  const top = running[running.length - 1];
  snapshot = top ? { id: top.id, label: top.label } : null;
  for (const l of listeners) l();
};

/** Runs `work` as a long command: it gets the signal to hand to `invoke`, aborted by Esc or Cancel. */
export async function runLong<T>(label: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const entry: Running = { id: nextId++, label, abort: new AbortController() };
  running = [...running, entry];
  changed();
  try {
    return await work(entry.abort.signal);
  } finally {
    running = running.filter((r) => r !== entry);
    changed();
  }
}

/** Cancels the latest long command still waiting; false when none is. */
export function cancelLongCommand(): boolean {
  const top = running[running.length - 1];
  if (!top) return false;
  top.abort.abort();
  running = running.filter((r) => r !== top);
  changed();
  return true;
}

/** The latest long command still waiting (what the bar shows), or null. */
export function currentLongCommand(): LongCommand | null {
  return snapshot;
}

export function useLongCommand(): LongCommand | null {
  return useSyncExternalStore((l) => (listeners.add(l), () => listeners.delete(l)), currentLongCommand);
}

/**
 * Esc cancels the latest long command before anything else hears the key (a dialog stays open).
 * Installed once at boot, so its capture listener runs before those dialogs add later.
 */
export function installEscToCancel(target: KeyTarget): () => void {
  const onKey = (e: KeyLike) => {
    if (e.key !== 'Escape' || !cancelLongCommand()) return;
    e.preventDefault();
    e.stopImmediatePropagation();
  };
  target.addEventListener('keydown', onKey, true);
  return () => target.removeEventListener('keydown', onKey, true);
}

/** What of a key event and of the window this needs (the store is also checked without the DOM's types). */
interface KeyLike {
  key: string;
  preventDefault(): void;
  stopImmediatePropagation(): void;
}
interface KeyTarget {
  addEventListener(type: 'keydown', listener: (e: KeyLike) => void, capture: boolean): void;
  removeEventListener(type: 'keydown', listener: (e: KeyLike) => void, capture: boolean): void;
}
