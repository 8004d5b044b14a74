import type { Task } from '../a2a';
import type { DelegationUpdate, TaskProgress, TraceEvent } from '../trace';
import type { CapsuleState } from './types';
import type { LastTaskView } from './last-task';
import type { FormationChange } from './formation';
import { EXPOSE_EVENT_NAMES, type ExposeEventMap } from './expose';
import { TUNNEL_EVENT_NAMES, type TunnelEventMap } from './tunnel';
import type { BreakpointsView } from './breakpoints';
import type { RuntimesEventMap } from './runtimes';
import type { StepView } from './versions';
import type { ToolCallView } from './tool-servers';

// The one map of events the core pushes to the UI: `noun.pastTense` -> payload.

export interface EventMap extends ExposeEventMap, TunnelEventMap, RuntimesEventMap {
  /**
   * The formation changed (a Studio edit, another editor's edit on disk, a workspace opened): what
   * changed, numbered; the whole view only when a workspace opened (see formation.ts).
   */
  'formation.changed': FormationChange;
  /** A capsule's session state or counts changed. */
  'capsule.stateChanged': {
    id: string;
    state: CapsuleState;
    url?: string;
    sessionId?: string;
    queued: number;
    tasks: number;
    running: string | null;
    error?: string;
    /** The capsule's last task that ended or asked for input (the record a page that connects later draws from). */
    lastTask?: LastTaskView;
  };
  /** A task of a running capsule changed state or got an artifact. */
  'task.updated': { capsuleId: string; sessionId: string; task: Task };
  /**
   * New lines of a session's trace, batched (a burst arrives as a few events, not thousands), sent
   * only to the clients that follow the session (trace.follow).
   * `first` is the line index of events[0] as trace.tail counts, so a view that caught up with
   * trace.tail joins the live stream without gaps or duplicates.
   */
  'trace.appended': { sessionId: string; capsuleId?: string; first: number; events: TraceEvent[] };
  /**
   * Delegations of a capsule's tasks as they go out and end (derived from its trace, batched like
   * trace.appended, the latest state of each call only), sent to every client: the canvas and the
   * console need them without following the session.
   */
  'delegation.updated': { sessionId: string; capsuleId: string; delegations: DelegationUpdate[] };
  /** Calls to tool servers (MCP) as they start and end (from the trace's tool_call/tool_result lines naming mcp_server), the latest state of each per batch, to every client. */
  'mcp.called': { sessionId: string; capsuleId: string; calls: ToolCallView[] };
  /** The running tasks of a capsule: turn and streamed text tail, the latest of each task per batch. */
  'task.progressed': { sessionId: string; capsuleId: string; tasks: TaskProgress[] };
  /** A manifest changed on disk while the Studio held another version of it (a write was refused or an editor saved over it). */
  'manifest.conflicted': { id: string; path: string; hash: string; message: string };
  /** Breakpoints were set or cleared, or a task paused at one or went on (the whole, bounded view). */
  'breakpoints.changed': BreakpointsView;
  /** The workspace's history gained a step (a save, a restore, a publish); the History panel reads history.list again. */
  'history.changed': { step: StepView | null };
  /** Something the user should read (a pinned port, a failed watch, a port taken). */
  'notice.raised': { level: 'info' | 'warning' | 'error'; message: string };
}

/** Every event name. */
export type EventName = keyof EventMap;
/** An event's payload. */
export type EventPayload<E extends EventName> = EventMap[E];

export const EVENT_NAMES: EventName[] = [
  'formation.changed',
  'capsule.stateChanged',
  'task.updated',
  'trace.appended',
  'delegation.updated',
  'mcp.called',
  'task.progressed',
  'manifest.conflicted',
  'notice.raised',
  'breakpoints.changed',
  'history.changed',
  'runtimes.changed',
  ...EXPOSE_EVENT_NAMES,
  ...TUNNEL_EVENT_NAMES,
];
