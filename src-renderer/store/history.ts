// Undo/redo of graph edits as pairs of inverse core commands. A redo of an "add" may give the
// capsule a new id, so steps name nodes through shared refs that a re-creation rebinds.

/** A node as the history knows it; `id` follows the node across re-creations. */
export interface NodeRef {
  id: string;
}

/** One undoable graph edit. */
export interface HistoryStep {
  label: string;
  undo(): Promise<void>;
  redo(): Promise<void>;
}

export interface History {
  readonly canUndo: boolean;
  readonly canRedo: boolean;
  /** Records an edit that already happened. */
  push(step: HistoryStep): void;
  undo(): Promise<string | null>;
  redo(): Promise<string | null>;
  /** The shared ref of the node that has this id now. */
  ref(id: string): NodeRef;
  /** Notes that the node of `ref` was re-created under `newId`. */
  rebind(ref: NodeRef, newId: string): void;
  clear(): void;
}

const LIMIT = 100;

export function createHistory(onChange: () => void): History {
  let done: HistoryStep[] = [];
  let undone: HistoryStep[] = [];
  const refs = new Map<string, NodeRef>();
  // Steps run one at a time: a second Ctrl+Z while the first is in flight waits its turn.
  let chain: Promise<unknown> = Promise.resolve();

  function run(
    from: () => HistoryStep[],
    to: () => HistoryStep[],
    act: (s: HistoryStep) => Promise<void>,
  ): Promise<string | null> {
    const next = chain.then(async () => {
      const step = from().pop();
      if (!step) return null;
      onChange();
      try {
        await act(step);
        to().push(step);
        return step.label;
      } finally {
        onChange();
      }
    });
    chain = next.catch(() => undefined);
    return next;
  }

  return {
    get canUndo() {
      return done.length > 0;
    },
    get canRedo() {
      return undone.length > 0;
    },
    push(step) {
      done.push(step);
      if (done.length > LIMIT) done = done.slice(-LIMIT);
      undone = [];
      onChange();
    },
    undo: () =>
      run(
        () => done,
        () => undone,
        (s) => s.undo(),
      ),
    redo: () =>
      run(
        () => undone,
        () => done,
        (s) => s.redo(),
      ),
    ref(id) {
      let r = refs.get(id);
      if (!r) refs.set(id, (r = { id }));
      return r;
    },
    rebind(r, newId) {
      if (refs.get(r.id) === r) refs.delete(r.id);
      r.id = newId;
      refs.set(newId, r);
    },
    clear() {
      done = [];
      undone = [];
      refs.clear();
      onChange();
    },
  };
}
