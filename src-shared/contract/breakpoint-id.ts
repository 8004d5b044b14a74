import type { BreakpointSpec } from './breakpoints';

// A breakpoint's id, apart from the breakpoint schemas: the canvas marks breakpoints by it from
// its first screen, which loads no schema library.

export const breakpointId = (b: BreakpointSpec): string =>
  b.kind === 'turn' ? `turn:${b.capsuleId}` : `edge:${b.from}→${b.to}`;
