import { answerText, isTerminal, type Task, type TaskState } from '../a2a';

// A capsule's last finished task as its node shows it ("Last output"): the core keeps it per
// capsule when a task ends (or stops to ask for input) and carries it in the capsule's record
// (CapsuleView, capsule.stateChanged), so a page that connects later draws the same node as the
// page that watched the task end. The text is the task's answer as task.updated carried it (masked
// like the trace), cut to what the node can expand to. No zod here: the page's first screen reads it.

/** The most characters of a last output the core keeps and the node expands to (the rest is cut, marked with …). */
export const LAST_OUTPUT_CHARS = 4000;

/** A capsule's last finished task: its id, how it ended, its answer (cut). */
export interface LastTaskView {
  taskId: string;
  state: TaskState;
  text: string;
  /** The session that ran it (the core sets it): a stopped capsule's Tasks tab reads that session's record. */
  sessionId?: string;
}

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** A task's last output when it has one (it ended, or waits for input), else undefined. */
export function lastTaskOf(task: Task, sessionId?: string): LastTaskView | undefined {
  const state = task.status.state;
  if (!isTerminal(state) && state !== 'TASK_STATE_INPUT_REQUIRED') return undefined;
  const text = cut(answerText(task), LAST_OUTPUT_CHARS);
  return sessionId ? { taskId: task.id, state, text, sessionId } : { taskId: task.id, state, text };
}
