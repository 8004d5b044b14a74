import { maskSecrets } from './writer';

// Secrets in values the runtime hands out (tasks, their events, answers): the same mask the trace
// writer puts on its lines, applied to every string inside a value. A value with no secret in it
// comes back as the same object (no copy, the common case); one with a secret comes back as a
// copy along the path to each masked string, so the original, still used by the running task, is
// left as it was.

/** Deeper than this, values are not walked (the door refuses data nested deeper long before). */
const MAX_DEPTH = 256;

function walk(value: unknown, secrets: readonly string[], depth: number): unknown {
  if (typeof value === 'string') return maskSecrets(value, secrets);
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = walk(value[i], secrets, depth + 1);
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  let out: Record<string, unknown> | undefined;
  const obj = value as Record<string, unknown>;
  for (const k in obj) {
    const v = walk(obj[k], secrets, depth + 1);
    if (v !== obj[k]) (out ??= { ...obj })[k] = v;
  }
  return out ?? value;
}

/** A masker for one set of secrets; with none (or only ones too short to mask) it is the identity. */
export function createMasker(secrets: readonly string[]): <T>(value: T) => T {
  // Longest first, so a secret that holds a shorter one is masked whole.
  const masks = secrets.filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
  if (!masks.length) return (value) => value;
  return (value) => walk(value, masks, 0) as typeof value;
}
