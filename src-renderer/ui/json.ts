// JSON as the inspector and the live trace show it: indented, never throwing (a trace line or a
// data part can hold anything a peer sent), and cut for display past a bound; Copy takes it whole.

/** Characters of JSON shown at most; the rest is one click away through Copy. */
export const JSON_SHOWN_CHARS = 20_000;

const plain = (v: unknown): unknown => {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'function' || typeof v === 'symbol') return `[${typeof v}]`;
  return v;
};

/** `value` as indented JSON. Values JSON cannot hold (a function, a bigint) read as text; a cycle as "[cycle]". */
export function formatJson(value: unknown): string {
  if (value === undefined) return 'undefined';
  try {
    return JSON.stringify(value, (_k, v: unknown) => plain(v), 2) ?? String(value);
  } catch {
    // A cycle: the second visit of an object is named instead of followed (shared objects too, here only).
    const seen = new WeakSet<object>();
    try {
      return JSON.stringify(
        value,
        (_k, v: unknown) => {
          if (v && typeof v === 'object') {
            if (seen.has(v)) return '[cycle]';
            seen.add(v);
          }
          return plain(v);
        },
        2,
      );
    } catch (err) {
      return `[not JSON: ${(err as Error).message}]`;
    }
  }
}

/** The part of a long text that is shown, and whether it was cut. */
export function clipText(text: string, max = JSON_SHOWN_CHARS): { shown: string; cut: boolean } {
  return text.length <= max ? { shown: text, cut: false } : { shown: text.slice(0, max), cut: true };
}
