import { emptyBreakpoints, withMarks } from './breakpointMarks';
import { invoke } from './client';
import { lazyActions } from './lazyActions';
import type { SliceCreator } from './types';
import { BREAKPOINT_ACTIONS, type BreakpointsSlice } from './state/breakpoints';
export type { ResumeAction, BreakpointMarks, BreakpointsSlice } from './state/breakpoints';
export { edgeKey, emptyBreakpoints, hasBreakpoint, marksOf, withMarks } from './breakpointMarks';

// The core's breakpoints and the tasks paused at them, as breakpoints.changed last said (the
// whole, bounded view each time). The canvas marks nodes and edges from it; the inspector shows a
// paused task's message to edit and its Continue / Step / Cancel.

export const createBreakpointsSlice: SliceCreator<BreakpointsSlice> = (set, get, api) => ({
  // Setting, clearing and resuming load on first use (breakpointActions.ts).
  ...lazyActions(BREAKPOINT_ACTIONS, () => import('./breakpointActions').then((m) => m.createBreakpointActions))(
    set,
    get,
    api,
  ),
  breakpoints: emptyBreakpoints(),
  breakpointMarks: { nodes: {}, edges: {}, tasks: {} },
  async loadBreakpoints() {
    try {
      set(withMarks(await invoke('breakpoints.list', {})));
    } catch {
      // No workspace yet: nothing to show.
    }
  },
});
