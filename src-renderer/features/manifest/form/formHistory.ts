// Undo and redo of form edits, one step per edit: a choice (a preset, an added reply, a removed
// entry) is one step, and typing into one field is one step until another field is edited. Kept
// per capsule outside React, so switching between the form and the YAML view keeps it. A step
// only undoes while the draft is still the text it produced: once the draft changed elsewhere
// (the YAML view, the file on disk), the older steps no longer apply and are dropped.
// Bounds: 100 steps a capsule, 20 capsules (the least recently edited are forgotten).

interface Step {
  key: string;
  before: string;
  after: string;
}

interface Stack {
  done: Step[];
  undone: Step[];
}

const STEPS = 100;
const CAPSULES = 20;
const stacks = new Map<string, Stack>();

function stackOf(id: string): Stack {
  let s = stacks.get(id);
  if (s) stacks.delete(id);
  else s = { done: [], undone: [] };
  stacks.set(id, s);
  while (stacks.size > CAPSULES) stacks.delete(stacks.keys().next().value as string);
  return s;
}

/** Records an edit of field `key` that turned `before` into `after`. */
export function recordEdit(id: string, key: string, before: string, after: string): void {
  if (before === after) return;
  const s = stackOf(id);
  const last = s.done[s.done.length - 1];
  if (last && last.after !== before) s.done = [];
  if (last && last.after === before && last.key === key && s.undone.length === 0) last.after = after;
  else s.done.push({ key, before, after });
  if (s.done.length > STEPS) s.done = s.done.slice(-STEPS);
  s.undone = [];
}

/** Ends the current step, so the next edit of the same field is a step of its own. */
export function closeStep(id: string): void {
  const last = stacks.get(id)?.done.at(-1);
  if (last) last.key = `${last.key}#closed`;
}

/** The draft before the last form edit, or null when there is none that still applies. */
export function undoEdit(id: string, draft: string): string | null {
  const s = stacks.get(id);
  const step = s?.done.at(-1);
  if (!s || !step) return null;
  if (step.after !== draft) {
    s.done = [];
    s.undone = [];
    return null;
  }
  s.done.pop();
  s.undone.push(step);
  return step.before;
}

export function redoEdit(id: string, draft: string): string | null {
  const s = stacks.get(id);
  const step = s?.undone.at(-1);
  if (!s || !step) return null;
  if (step.before !== draft) {
    s.undone = [];
    return null;
  }
  s.undone.pop();
  s.done.push(step);
  return step.after;
}

export function canUndo(id: string, draft: string): boolean {
  return stacks.get(id)?.done.at(-1)?.after === draft;
}

export function canRedo(id: string, draft: string): boolean {
  return stacks.get(id)?.undone.at(-1)?.before === draft;
}
