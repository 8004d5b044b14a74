import type { RegExpEngine } from 'ajv/dist/types';
import { RE2JS } from 're2js';

// Patterns written in manifests and test files (a contract's `pattern`, a test's `regex`) run
// against text callers and models send. JavaScript's engine backtracks, and /^(a+)+$/ on a
// 35-character string never ends; RE2 matches in time linear in the text, at the price of no
// backreferences or lookaround (such a pattern does not compile, and says so).

/** JavaScript regex flags and what they are in RE2; g, u and y change nothing about a match. */
const FLAGS: Record<string, number> = {
  i: RE2JS.CASE_INSENSITIVE,
  s: RE2JS.DOTALL,
  m: RE2JS.MULTILINE,
  g: 0,
  u: 0,
  y: 0,
};

/** Compiles a pattern with JavaScript flags, or throws why it cannot be. */
export function compileLinear(pattern: string, flags = ''): RE2JS {
  let bits = 0;
  for (const f of flags) {
    if (!(f in FLAGS)) throw new Error(`unknown flag ${f}`);
    bits |= FLAGS[f]!;
  }
  try {
    return RE2JS.compile(pattern, bits);
  } catch (err) {
    throw new Error(
      `${(err as Error).message} (patterns are matched by RE2, a linear-time engine: no backreferences or lookaround)`,
      { cause: err },
    );
  }
}

/** The engine for Ajv's `pattern` and `patternProperties` (its `code.regExp` option). */
export const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string, flags: string) => compileLinear(pattern, flags),
  { code: 'compileLinear' },
);
