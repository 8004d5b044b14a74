import { useSyncExternalStore } from 'react';

// Commands a user waits on (a test run, a publish with its tests, a fork, a Kubernetes export,
// the sessions browser's loads) run through `runLong`: while one waits, the Studio shows it with
// "Esc to cancel" (app/LongCommandBar.tsx), and Esc, or the bar's Cancel, aborts the invoke. The
// core is told and stops the work where it can; the command then rejects with a CoreError
// `canceled`. A command that is usually quick passes `showAfterMs`: the bar appears only once it
// has waited that long (so it does not flash), and until then Esc is left to the page.

export interface LongCommand {
  id: number;
  /** What runs, for the bar: "Running test checkout". */
  label: string;
}

/** How long a usually quick command (an export, a sessions load) waits before the bar shows it. */
export const SHOW_LONG_AFTER_MS = 400;

export interface LongOptions {
  /** Show the bar (and take Esc) only once the command has waited this long; at once when left out. */
  showAfterMs?: number;
}

interface Running extends LongCommand {
  abort: AbortController;
  /** Shown in the bar, and so canceled by Esc. */
  shown: boolean;
}

let running: Running[] = [];
let snapshot: LongCommand | null = null;
let nextId = 1;
const listeners = new Set<() => void>();

/** The latest command the bar shows. */
const latestShown = (): Running | undefined => running.findLast((r) => r.shown);

const changed = () => {
  const top = latestShown();
  snapshot = top ? { id: top.id, label: top.label } : null;
  for (const l of listeners) l();
};

/** Runs `work` as a long command: it gets the signal to hand to `invoke`, aborted by Esc or Cancel. */
export async function runLong<T>(
  label: string,
  work: (signal: AbortSignal) => Promise<T>,
  opts: LongOptions = {},
): Promise<T> {
  const later = (opts.showAfterMs ?? 0) > 0;
  const entry: Running = { id: nextId++, label, abort: new AbortController(), shown: !later };
  running = [...running, entry];
  const timer = later
    ? setTimeout(() => {
        entry.shown = true;
        changed();
      }, opts.showAfterMs)
    : undefined;
  if (!later) changed();
  try {
    return await work(entry.abort.signal);
  } finally {
    clearTimeout(timer);
    running = running.filter((r) => r !== entry);
    if (entry.shown) changed();
  }
}

/** Cancels the latest long command the bar shows; false when it shows none. */
export function cancelLongCommand(): boolean {
  const top = latestShown();
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
