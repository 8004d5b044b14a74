// Where rows sit in the live trace: every row is ROW pixels tall but the one open row (an event
// expanded to its JSON), whose height is measured. One open row keeps the arithmetic constant-time
// at any length, so the virtualized list never measures more than that one element.

export interface RowLayout {
  /** The list's whole height. */
  total: number;
  /** The top of the row at `position`. */
  offsetOf(position: number): number;
  /** The row at pixel `y` from the top (clamped to the rows there are). */
  rowAt(y: number): number;
}

/** `openAt` is the open row's position (-1 for none), `openHeight` its measured height. */
export function rowLayout(count: number, row: number, openAt: number, openHeight: number): RowLayout {
  const open = openAt >= 0 && openAt < count ? openAt : -1;
  const extra = open >= 0 ? Math.max(0, openHeight - row) : 0;
  const last = Math.max(0, count - 1);
  return {
    total: count * row + extra,
    offsetOf: (p) => p * row + (open >= 0 && p > open ? extra : 0),
    rowAt(y) {
      const at = Math.max(0, y);
      let p: number;
      if (open < 0 || at < open * row) p = Math.floor(at / row);
      else if (at < (open + 1) * row + extra) p = open;
      else p = open + 1 + Math.floor((at - (open + 1) * row - extra) / row);
      return Math.min(last, p);
    },
  };
}
