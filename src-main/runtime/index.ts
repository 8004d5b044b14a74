// The runtime's public surface: sessions, their records layout, and the executor seam.
export { startSession } from './session';
export { recordsLayout, type RunningRecord } from './layout';
export { messageText } from './message-text';
export { withHistory } from './tasks';
export { replyMessageOf } from './answer';
export { DEFAULT_MAX_TURNS } from './loop';
export { policyOf, samePolicy } from './policy';
export type * from './api';
export type { TaskExecutor, TaskRun, TaskOutcome, ExecutorDeps, ExecutorFactory, FailureCause } from './executor';
export { InputTimeoutError } from './executor';
export {
  handleUnexpected,
  installLastResort,
  leaveTaskScope,
  runInTaskScope,
  type LastResortOptions,
  type TaskScope,
} from './last-resort';
export type { Tool, ToolContext, ToolOutcome, InFlightWork, ResidueItem } from './tool-types';
// Formations (delegate_task, shell, sub-capsules) — the resolver a formation launcher passes as SessionOptions.formation.
export {
  createSessionTools,
  liveFormation,
  staticFormation,
  type FormationMember,
  type FormationResolver,
  type FormationTarget,
} from './tools';
export { BreakpointError, sameDoor } from './breakpoints';
export {
  DEFAULT_PAUSE_TIMEOUT_MS,
  MAX_PAUSE_TIMEOUT_MS,
  PAUSE_TEXT_CHARS,
  type ResumeAction,
  type SessionBreakpoints,
} from './pause';
export { listMcpTools, type ListedTools } from './mcp';
