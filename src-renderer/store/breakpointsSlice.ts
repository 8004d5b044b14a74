import type { BreakpointSpec, BreakpointsView } from '../../src-shared/contract';
import { breakpointId } from '../../src-shared/contract';
import { describeError, invoke } from './client';
import type { SliceCreator } from './types';
import type { BreakpointMarks, BreakpointsSlice } from './state/breakpoints';
export type { ResumeAction, BreakpointMarks, BreakpointsSlice } from './state/breakpoints';

// The core's breakpoints and the tasks paused at them, as breakpoints.changed last said (the
// whole, bounded view each time). The canvas marks nodes and edges from it; the inspector shows a
// paused task's message to edit and its Continue / Step / Cancel.

export const edgeKey = (from: string, to: string) => `${from}→${to}`;

/** The marks of a view, computed once per change so each node's selector is one lookup. */
export function marksOf(view: BreakpointsView): BreakpointMarks {
  const marks: BreakpointMarks = { nodes: {}, edges: {}, tasks: {} };
  const at = (map: BreakpointMarks['nodes'], key: string) => (map[key] ??= { set: false, paused: 0 });
  for (const b of view.breakpoints)
    at(b.kind === 'turn' ? marks.nodes : marks.edges, b.kind === 'turn' ? b.capsuleId : edgeKey(b.from, b.to)).set =
      true;
  for (const p of view.paused) {
    marks.tasks[p.taskId] = p;
    at(marks.nodes, p.capsuleId).paused++;
    if (p.point === 'edge' && p.target) at(marks.edges, edgeKey(p.capsuleId, p.target)).paused++;
  }
  return marks;
}

const withMarks = (breakpoints: BreakpointsView) => ({ breakpoints, breakpointMarks: marksOf(breakpoints) });

export const emptyBreakpoints = (): BreakpointsView => ({ breakpoints: [], paused: [], timeoutSeconds: 600 });

/** Whether a breakpoint with this spec is set. */
export const hasBreakpoint = (view: BreakpointsView, spec: BreakpointSpec): boolean =>
  view.breakpoints.some((b) => b.id === breakpointId(spec));

export const createBreakpointsSlice: SliceCreator<BreakpointsSlice> = (set, get) => ({
  breakpoints: emptyBreakpoints(),
  breakpointMarks: { nodes: {}, edges: {}, tasks: {} },
  async loadBreakpoints() {
    try {
      set(withMarks(await invoke('breakpoints.list', {})));
    } catch {
      // No workspace yet: nothing to show.
    }
  },
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

export { withMarks };
