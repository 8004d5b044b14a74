import { createHash } from 'node:crypto';
import type { ChatMessage } from './types';

// A script made from a recording remembers, for each turn after a tool call, the tool results the
// recorded turn followed (`given`). A replay whose tools answer differently still gets the
// recorded turn (so the run stays deterministic) but the trace says which turn diverged and how.
// Long results are kept as a digest so a script stays small; short ones as written, so a reader
// sees what the model was answering.

/** Results up to this many characters are kept as text; longer ones as `sha256:<hex>`. */
export const GIVEN_TEXT_LIMIT = 1000;

export function givenEntry(result: string): string {
  if (result.length <= GIVEN_TEXT_LIMIT && !result.startsWith('sha256:')) return result;
  return `sha256:${createHash('sha256').update(result).digest('hex')}`;
}

/** The tool results the model is answering: the tool messages after the last assistant message. */
export function latestToolResults(messages: readonly ChatMessage[]): string[] {
  const out: string[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'tool') break;
    out.unshift(m.content);
  }
  return out;
}

const clip = (s: string) => (s.length > 120 ? `${s.slice(0, 117)}…` : s);

/** Why the results differ from the recorded ones, or undefined when they are the same. */
export function givenDivergence(given: readonly string[], actual: readonly string[]): string | undefined {
  if (given.length !== actual.length)
    return `the recording followed ${given.length} tool result(s), this run has ${actual.length}`;
  for (let i = 0; i < given.length; i++) {
    if (givenEntry(actual[i]) !== given[i])
      return `tool result ${i + 1} differs from the recording: got "${clip(actual[i])}", recorded "${clip(given[i])}"`;
  }
  return undefined;
}
