import type { BreakpointSpec, BreakpointsView } from '../../src-shared/contract';
import { breakpointId } from '../../src-shared/contract';
import type { BreakpointMarks } from './state/breakpoints';

// The marks the canvas draws from the core's breakpoints view, and the questions asked of it.

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

export const withMarks = (breakpoints: BreakpointsView) => ({ breakpoints, breakpointMarks: marksOf(breakpoints) });

export const emptyBreakpoints = (): BreakpointsView => ({ breakpoints: [], paused: [], timeoutSeconds: 600 });

/** Whether a breakpoint with this spec is set. */
export const hasBreakpoint = (view: BreakpointsView, spec: BreakpointSpec): boolean =>
  view.breakpoints.some((b) => b.id === breakpointId(spec));
