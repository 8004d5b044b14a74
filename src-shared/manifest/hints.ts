import type { z } from 'zod';

/** A field path step: a key, or an index into a list. */
type PathSegment = string | number;

// Hints for manifest issues: the keys allowed at a level (read from the zod schema itself, so they
// never drift from it) and the closest one to a misspelling. Pure: the core's loader and the
// editor's as-you-type check word their hints with the same functions. Reading the schema's
// definitions (`_zod.def`) is why zod is pinned to one exact version in package.json.

type AnySchema = z.ZodType;

function def(schema: AnySchema): { type: string; [k: string]: unknown } {
  return (schema as unknown as { _zod: { def: { type: string } } })._zod.def;
}

/** Strips optional/default/nullable/pipe wrappers. */
function unwrap(schema: AnySchema): AnySchema {
  let s = schema;
  for (let i = 0; i < 10; i++) {
    const d = def(s);
    if (d.innerType) s = d.innerType as AnySchema;
    else if (d.type === 'pipe' && d.in) s = d.in as AnySchema;
    else break;
  }
  return s;
}

/** The object schema at a path (array indexes step into elements), or undefined. */
export function keysAt(root: AnySchema, path: readonly PathSegment[]): string[] | undefined {
  let s: AnySchema | undefined = unwrap(root);
  for (const seg of path) {
    if (!s) return undefined;
    const d = def(s);
    if (d.type === 'object' && typeof seg === 'string') s = (d.shape as Record<string, AnySchema>)[seg];
    else if (d.type === 'array' && typeof seg === 'number') s = d.element as AnySchema;
    else return undefined;
    s = s ? unwrap(s) : undefined;
  }
  if (!s) return undefined;
  const d = def(s);
  return d.type === 'object' ? Object.keys(d.shape as Record<string, unknown>) : undefined;
}

export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

/** The closest candidate within a third of the word's length (at least 2 edits), if any. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(2, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return bestDistance <= limit ? best : undefined;
}

export function keyHint(word: string, allowed: readonly string[] | undefined): string | undefined {
  if (!allowed?.length) return undefined;
  const near = closest(word, allowed);
  return near ? `did you mean "${near}"? allowed here: ${allowed.join(', ')}` : `allowed here: ${allowed.join(', ')}`;
}
