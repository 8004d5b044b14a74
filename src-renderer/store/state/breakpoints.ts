import type { BreakpointSpec, BreakpointsView, PausedTask } from '../../../src-shared/contract';

// The shape of the store's breakpoints slice, below every slice file so the whole store's type
// (types.ts) can be built from the shapes without importing the slices themselves.

export type ResumeAction = 'continue' | 'step' | 'cancel';

/** What the views draw, by node id and by `from→to`: a breakpoint set, and how many tasks are paused there; and each paused task by id. */
export interface BreakpointMarks {
  nodes: Record<string, { set: boolean; paused: number }>;
  edges: Record<string, { set: boolean; paused: number }>;
  tasks: Record<string, PausedTask>;
}

export interface BreakpointsSlice {
  breakpoints: BreakpointsView;
  breakpointMarks: BreakpointMarks;
  loadBreakpoints(): Promise<void>;
  /** Sets the breakpoint, or clears it when it is set. */
  toggleBreakpoint(spec: BreakpointSpec): Promise<void>;
  clearBreakpoints(): Promise<void>;
  resumePaused(p: PausedTask, action: ResumeAction, message?: string): Promise<void>;
}

/** The actions whose code loads on first use (breakpointActions.ts, see lazyActions.ts). */
export const BREAKPOINT_ACTIONS = ['toggleBreakpoint', 'clearBreakpoints', 'resumePaused'] as const;
