import { describeError, invoke } from './client';
import { hasBreakpoint, withMarks } from './breakpointMarks';
import type { SliceCreator } from './types';
import type { BREAKPOINT_ACTIONS, BreakpointsSlice } from './state/breakpoints';

// Setting and clearing breakpoints and resuming a paused task: loaded on the first call
// (breakpointsSlice.ts names them); the first screen only draws the marks.

export const createBreakpointActions: SliceCreator<Pick<BreakpointsSlice, (typeof BREAKPOINT_ACTIONS)[number]>> = (
  set,
  get,
) => ({
  async toggleBreakpoint(spec) {
    const on = hasBreakpoint(get().breakpoints, spec);
    try {
      set(withMarks(await invoke(on ? 'breakpoints.clear' : 'breakpoints.set', spec)));
    } catch (err) {
      get().notify('error', `Could not ${on ? 'clear' : 'set'} the breakpoint: ${describeError(err)}`);
    }
  },
  async clearBreakpoints() {
    try {
      set(withMarks(await invoke('breakpoints.clear', { all: true })));
    } catch (err) {
      get().notify('error', `Could not clear the breakpoints: ${describeError(err)}`);
    }
  },
  async resumePaused(p, action, message) {
    try {
      set(
        withMarks(
          await invoke('breakpoints.resume', {
            sessionId: p.sessionId,
            taskId: p.taskId,
            action,
            ...(message !== undefined ? { message } : {}),
          }),
        ),
      );
    } catch (err) {
      get().notify('error', `Could not ${action} the paused task: ${describeError(err)}`);
    }
  },
});
