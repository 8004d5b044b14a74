// Request params may nest at most MAX_PARAMS_DEPTH objects and arrays deep. JSON.parse takes a
// body nested 100,000 levels deep, but everything after it that walks a value recursively (the
// trace's JSON.stringify, message text, masking) would run out of stack, and a caller would get
// -32603 for what is bad input. The check is iterative, so no depth can exhaust it.

import { nestedDeeperThan } from '../trace';

/** Objects and arrays, counting params itself as level 1 (a data part's value starts at level 5). */
export const MAX_PARAMS_DEPTH = 64;

/** The field to name for a value nested too deep: up to its first data or metadata key, else 6 keys. */
function fieldOf(value: unknown, max: number, root: string): string {
  const stack: { value: unknown; depth: number; path: string[] }[] = [{ value, depth: 1, path: [] }];
  while (stack.length) {
    const { value: v, depth, path } = stack.pop()!;
    if (depth > max) {
      const cut = path.findIndex((k) => k === 'data' || k === 'metadata');
      return [root, ...path.slice(0, cut >= 0 ? cut + 1 : 6)].join('.');
    }
    const o = v as Record<string, unknown>;
    for (const k in o) {
      const item = o[k];
      if (item !== null && typeof item === 'object') stack.push({ value: item, depth: depth + 1, path: [...path, k] });
    }
  }
  return root;
}

/** The field nested deeper than MAX_PARAMS_DEPTH, or undefined when params are within it. */
export function tooDeepField(params: unknown, root = 'params', max = MAX_PARAMS_DEPTH): string | undefined {
  if (!nestedDeeperThan(params, max)) return undefined;
  return fieldOf(params, max, root);
}
