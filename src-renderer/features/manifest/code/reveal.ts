// The bridge between the problems list and the YAML editor, which loads on demand: a click on a
// problem asks for its line; the editor shows it now, or as soon as it has mounted.

interface Revealer {
  revealLine(line: number, column?: number): void;
}

let current: Revealer | null = null;
let pending: { line: number; column?: number } | null = null;

/** Called by the editor as it mounts (with itself) and unmounts (with null). */
export function registerRevealer(r: Revealer | null): void {
  current = r;
  if (r && pending) {
    r.revealLine(pending.line, pending.column);
    pending = null;
  }
}

/** Puts the caret at a line (and column) of the YAML editor, scrolled into view and focused. */
export function revealLine(line: number, column?: number): void {
  if (current) current.revealLine(line, column);
  else pending = { line, column };
}
