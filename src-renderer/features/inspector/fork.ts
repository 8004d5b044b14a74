import type { TaskTraceView } from '../../../src-shared/contract';
import { describeError, invoke, useStudio } from '../../store';
import { taskFigures } from './taskTrace';

// "Fork…" on a task: the fork form of the sessions browser, opened on the task and a turn. From a
// turn of the open details, or from a finished task's row (turn 1; the form picks another).

/** Opens the fork form in the sessions browser on this task and turn. */
export function forkFrom(
  sessionId: string,
  taskId: string,
  turn: number,
  lastTurn: number,
  events: TaskTraceView['events'],
): void {
  const received = events.find((e) => e.event_type === 'a2a_task_received') as { text?: unknown } | undefined;
  const st = useStudio.getState();
  st.showSessions('sessions');
  void st.openSession(sessionId);
  void st.openForkForm({
    sessionId,
    taskId,
    turn,
    lastTurn: Math.max(1, lastTurn),
    recorded: typeof received?.text === 'string' ? received.text : '',
  });
}

/** Reads the task's trace (how many turns it took), then opens the fork form at its first turn. */
export async function forkTask(sessionId: string, taskId: string): Promise<void> {
  try {
    const trace = await invoke('sessions.taskTrace', { sessionId, taskId });
    forkFrom(sessionId, taskId, 1, taskFigures(trace.events, trace.price).turns.length, trace.events);
  } catch (err) {
    useStudio.getState().notify('error', `Could not open the fork form: ${describeError(err)}`);
  }
}
