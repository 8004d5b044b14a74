import { create } from 'zustand';
import { createConsoleSlice } from './consoleSlice';
import type { EventBatch } from './fold';
import { foldBatch } from './fold';
import { createFlowSlice } from './flowSlice';
import { createFormationSlice } from './formationSlice';
import { createGraphSlice } from './graphSlice';
import { createManifestSlice } from './manifestSlice';
import { createNoticeSlice } from './noticeSlice';
import { createTasksSlice } from './tasksSlice';
import { createTracesSlice } from './tracesSlice';
import { createSessionsSlice } from './sessionsSlice';
import { createInspectorSlice } from './inspectorSlice';
import { createReplaySlice } from './replaySlice';
import { createBreakpointsSlice } from './breakpointsSlice';
import { createForkSlice } from './forkSlice';
import { createRuntimesSlice } from './runtimesSlice';
import { createToolServersSlice } from './toolServersSlice';
import { createExposeSlice } from './exposeSlice';
import type { StudioState } from './types';
import type { ConsoleEntry } from './conversations';

export type { StudioState } from './types';
export type {
  CapsuleFlowNode,
  RemoteFlowNode,
  ExternalFlowNode,
  ToolServerFlowNode,
  FlowNode,
  FlowEdge,
} from './graphModel';
export { CALLS_KEPT, type ServerTools, type ToolServerPrompt } from './toolServersSlice';
export type { ConsoleEntry, Conversation, Outgoing, SendOutcome } from './consoleSlice';
export { conversationKey, conversationsOf, entriesOf, entriesOfConversation } from './consoleSlice';
export type { DelegationOutcome } from './delegationsFold';
export type { TaskRecord } from './tasksSlice';
export type { NodeActivity } from './flowSlice';
export type { EdgeFlow, EdgeHop } from './flowModel';
export { crossed } from './flowModel';
export type { LiveTrace } from './tracesSlice';
export type { Notice } from './noticeSlice';
export type { SessionFilter, OpenSession } from './sessionsSlice';
export type { SideTab } from './inspectorSlice';
export type { ReplayState, ReplayControl } from './replaySlice';
export { REPLAY_SPEEDS, type ReplaySpeed } from './replayPlayer';
export { edgeKey, hasBreakpoint, type ResumeAction } from './breakpointsSlice';
export {
  canvasPhase,
  capsulePhase,
  hasWork,
  taskPhase,
  delegationPhase,
  edgeInFlight,
  type CanvasPhase,
  type CapsulePhase,
  type TaskPhase,
  type DelegationPhase,
} from './phase';
export { editedDelegations, replayedDelegations, type ForkDelegationDraft, type ForkDraft } from './forkSlice';
export type { EventBatch } from './fold';
export { exposureOf, type GatewayExposures } from './exposeSlice';
export { emptyBatch } from './fold';
export { answerText } from './tasksSlice';
export { setCoreClient } from './client';
export {
  cancelLongCommand,
  installEscToCancel,
  runLong,
  SHOW_LONG_AFTER_MS,
  useLongCommand,
  type LongCommand,
} from './longCommand';
export {
  clearOfFrames,
  FRAME_NODE,
  FRAME_PAD,
  runtimeAt,
  runtimeFrames,
  type Rect,
  type RuntimeFrame,
} from './runtimeFrames';

/** The Studio's one bound store. */
export const useStudio = create<StudioState>()((...a) => ({
  ...createFormationSlice(...a),
  ...createGraphSlice(...a),
  ...createManifestSlice(...a),
  ...createConsoleSlice(...a),
  ...createTasksSlice(...a),
  ...createTracesSlice(...a),
  ...createNoticeSlice(...a),
  ...createSessionsSlice(...a),
  ...createFlowSlice(...a),
  ...createInspectorSlice(...a),
  ...createReplaySlice(...a),
  ...createBreakpointsSlice(...a),
  ...createForkSlice(...a),
  ...createRuntimesSlice(...a),
  ...createToolServersSlice(...a),
  ...createExposeSlice(...a),
}));

/** Applies one frame's worth of core events in a single store update. */
export function ingest(batch: EventBatch): void {
  useStudio.setState((s) => foldBatch(s, batch));
  const s = useStudio.getState();
  for (const n of batch.notices) s.notify(n.level, n.message);
  // A formation.changed was missed (a reconnect, a change that did not follow): read the whole one.
  if (s.formationBehind) void s.loadFormation();
  // Breakpoints and exposures belong to a workspace: another one opened (or a reconnect) reads its own.
  if (batch.formations.some((f) => f.change.full)) {
    void s.loadBreakpoints();
    void s.loadExposures();
  }
}
/** The reconnect catch-up and the views' reads of sessions without work (flowCatchUp.ts), loaded on first use. */
let flowCatchUp: Promise<typeof import('./flowCatchUp')> | undefined;
const loadFlowCatchUp = () => (flowCatchUp ??= import('./flowCatchUp'));

/** After a (re)connect: the recent flow of the sessions with work in hand. */
export function catchUpFlow(): Promise<void> {
  return loadFlowCatchUp().then((m) => m.catchUpFlow(useStudio.getState, ingest));
}

/**
 * A view shows these console entries: the sessions that ran their tasks are read for the
 * delegations the page did not see, in the background (which ones, and how often: `sessionsToRead`).
 */
export function readRecentFlow(entries: readonly ConsoleEntry[]): void {
  void loadFlowCatchUp()
    .then((m) => m.catchUpEntries(useStudio.getState, ingest, entries))
    .catch(() => undefined); // nothing more to show than before
}

/** The link dropped: those sessions are read again when a view next needs them. */
export function forgetRecentFlow(): void {
  void flowCatchUp?.then((m) => m.forgetViewReads());
}
export { connectCoreEvents } from './coreEvents';
export { startKeeping, keepPanelSize, keptPanelSize } from './keep';
export { invoke, describeError, onCoreEvent } from './client'; // the Expose panel calls the core itself (the token never enters the store)
