import type { TaskState } from '../../../src-shared/a2a';

const LABEL: Record<TaskState, string> = {
  TASK_STATE_UNSPECIFIED: 'unknown',
  TASK_STATE_SUBMITTED: 'submitted',
  TASK_STATE_WORKING: 'working',
  TASK_STATE_COMPLETED: 'completed',
  TASK_STATE_FAILED: 'failed',
  TASK_STATE_CANCELED: 'canceled',
  TASK_STATE_INPUT_REQUIRED: 'input required',
  TASK_STATE_REJECTED: 'rejected',
  TASK_STATE_AUTH_REQUIRED: 'auth required',
};

/** A task's state as a coloured word (the colour never carries the meaning alone). */
export function TaskStateBadge({ state }: { state: TaskState }) {
  return (
    <span className="task-state" data-state={LABEL[state]} data-testid="task-state">
      {LABEL[state].toUpperCase()}
    </span>
  );
}
