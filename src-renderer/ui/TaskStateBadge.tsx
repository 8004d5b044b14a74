import type { TaskPhase } from '../store';

const LABEL: Record<TaskPhase, string> = {
  TASK_STATE_UNSPECIFIED: 'unknown',
  TASK_STATE_SUBMITTED: 'submitted',
  TASK_STATE_WORKING: 'working',
  TASK_STATE_COMPLETED: 'completed',
  TASK_STATE_FAILED: 'failed',
  TASK_STATE_CANCELED: 'canceled',
  TASK_STATE_INPUT_REQUIRED: 'input required',
  TASK_STATE_REJECTED: 'rejected',
  TASK_STATE_AUTH_REQUIRED: 'auth required',
  paused: 'paused',
};

/** A task's state as a coloured word (the colour never carries the meaning alone); `paused` at a breakpoint (store/phase.ts). */
export function TaskStateBadge({ state }: { state: TaskPhase }) {
  return (
    <span className="task-state" data-state={LABEL[state]} data-testid="task-state">
      {LABEL[state].toUpperCase()}
    </span>
  );
}
