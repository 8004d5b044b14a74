import { isTerminal, type TaskState } from '../../src-shared/a2a';
import type { CapsuleState, CapsuleView } from '../../src-shared/contract';
import type { DelegationOutcome } from './delegationsFold';
import type { StudioState } from './types';

// What a capsule, a task or a delegation is doing, as every view tells it: the node's state, the
// console's capsule picker and entries, the Tasks tab and the edges all read these selectors, so
// the same state is never told three ways. A task paused at a breakpoint is still WORKING for A2A,
// but for the user it is paused: that comes from the one record the core pushes about pauses
// (breakpoints.changed, folded into `breakpointMarks`).

/** A capsule's state as shown: the core's, or `paused` while one of its tasks waits at a breakpoint. */
export type CapsulePhase = CapsuleState | 'paused';
/** What a node shows: its live phase, or during a replay the recording's (`absent`: not in the recorded run). */
export type CanvasPhase = CapsulePhase | 'absent';
/** A task's state as shown: its A2A state, or `paused` while it waits at a breakpoint. */
export type TaskPhase = TaskState | 'paused';
/** A console delegation's state as shown: `paused` while its message waits at an edge breakpoint, not yet sent. */
export type DelegationPhase = DelegationOutcome['state'] | 'paused';

/** What a capsule's phase is read from (a selector passes the store; a view may pass what it already selected). */
export type PhaseFacts = Pick<StudioState, 'capsules' | 'breakpointMarks'>;

const running = (state: CapsuleState) => state === 'idle' || state === 'busy';

export function capsulePhase(s: PhaseFacts, id: string): CapsulePhase | undefined {
  const c = s.capsules[id];
  if (!c) return undefined;
  if (running(c.state) && (s.breakpointMarks.nodes[id]?.paused ?? 0) > 0) return 'paused';
  return c.state;
}

/**
 * Whether the capsule's session has work in hand: busy, a task running (the core names one paused
 * at a breakpoint as running too) or waiting in its queue. An idle session has no flow to draw.
 */
export function hasWork(c: Pick<CapsuleView, 'sessionId' | 'state' | 'running' | 'queued'> | undefined): boolean {
  return !!c?.sessionId && (c.state === 'busy' || !!c.running || c.queued > 0);
}

/**
 * The node's state on the canvas. During a replay the canvas is the recording's, the state as much
 * as the activity under it (both folded from the same recorded steps): busy while a recorded task
 * runs there at the cursor, idle between tasks; live states and pauses do not leak into it.
 */
export function canvasPhase(
  s: PhaseFacts & Pick<StudioState, 'replay' | 'activity'>,
  id: string,
): CanvasPhase | undefined {
  if (!s.replay) return capsulePhase(s, id);
  if (!s.capsules[id]) return undefined;
  if (!Object.values(s.replay.ids).includes(id)) return 'absent';
  return s.activity[id]?.current ? 'busy' : 'idle';
}

export function taskPhase(s: Pick<StudioState, 'breakpointMarks'>, taskId: string, state: TaskState): TaskPhase {
  return !isTerminal(state) && s.breakpointMarks.tasks[taskId] ? 'paused' : state;
}

/** A delegation as the console and the task details list it (what it was addressed to, the capsule that took it). */
interface DelegationFacts<S extends string> {
  state: S;
  to: string;
  capsule?: string;
}

export function delegationPhase<S extends string>(s: PhaseFacts, taskId: string, d: DelegationFacts<S>): S | 'paused' {
  const p = s.breakpointMarks.tasks[taskId];
  if (d.state !== 'running' || p?.point !== 'edge') return d.state;
  const targetName = p.target ? s.capsules[p.target]?.name : undefined;
  return d.to === p.to || (targetName !== undefined && (d.to === targetName || d.capsule === targetName))
    ? 'paused'
    : d.state;
}

/** Delegations on their way across an edge: one paused before it is sent is not on its way. */
export function edgeInFlight(
  s: Pick<StudioState, 'edgeFlow' | 'breakpointMarks'>,
  edgeId: string,
  pausedKey: string,
): number {
  const inFlight = s.edgeFlow[edgeId]?.inFlight ?? 0;
  return Math.max(0, inFlight - (s.breakpointMarks.edges[pausedKey]?.paused ?? 0));
}
