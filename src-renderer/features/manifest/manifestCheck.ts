import type { IssueView } from '../../../src-shared/contract';
import { checkManifest as check } from '../../../src-shared/manifest';

// The draft's issues as the user types, from the one manifest checker the core's loader uses
// (same messages, paths, lines and columns). The editor knows no environment, so a value holding
// a ${VAR} is left to the core, whose issues stay the authority once the text is saved.

/** Syntax errors and schema problems of a manifest draft, each at its line and column. */
export function checkManifest(text: string): IssueView[] {
  return check(text);
}
