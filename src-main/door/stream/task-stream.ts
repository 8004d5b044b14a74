import {
  FRAMES_EXTENSION_URI,
  INTERRUPTED_STATES,
  isTerminal,
  type StreamResponse,
  type Task,
  type TaskState,
} from '../../../src-shared/a2a';
import type { Session } from '../../runtime/api';
import { frameOf } from './frames';
import type { SseStream } from './sse';

// Follows one task on an open SSE stream: the task as it stands first, then every status and
// artifact update in the order the session emits them. A SendStreamingMessage stream closes after
// a terminal or interrupted state (the caller answers an INPUT_REQUIRED task with a new message,
// which is a new call); a SubscribeToTask stream closes only at a terminal state, so a subscriber
// sees a task that waits for input through to its end (interrupted states are reported, the stream
// stays open). Either ends earlier when the caller goes or the life cap is reached. The snapshot and the subscription are taken in the same tick, so no update is lost or
// sent twice. Each stream has its own listener, so several streams on one task each get every
// event in the same order, and one closing touches neither the task nor the other streams.

/** The part of a session a task stream reads. */
export type FollowedSession = Pick<Session, 'peekTask' | 'onTaskEvent'> & {
  trace: Pick<Session['trace'], 'subscribe'>;
};

export interface FollowOptions {
  /** Add the frames extension's text and tool frames as statusUpdate metadata. */
  frames?: boolean;
  /** Keep the stream open through INPUT_REQUIRED / AUTH_REQUIRED (SubscribeToTask). */
  untilTerminal?: boolean;
  /** The task as the message that made it left it: the snapshot when it has already ended (refused at once). */
  accepted?: Task;
}

/** States after which a stream closes: terminal ones, and interrupted ones unless `untilTerminal`. */
export const closesStream = (state: TaskState | undefined, untilTerminal = false): boolean =>
  !!state && (isTerminal(state) || (!untilTerminal && INTERRUPTED_STATES.has(state)));

/** Latest status as a statusUpdate (what the life cap closes with: the real state, no final claim). */
export function statusEventOf(task: Task): StreamResponse {
  return { statusUpdate: { taskId: task.id, contextId: task.contextId ?? '', status: task.status } };
}

/**
 * Writes the task and its updates to `sse` until the task settles or the stream ends.
 * Returns the snapshot sent first. The caller has checked the task exists.
 */
export function followTask(
  session: FollowedSession,
  taskId: string,
  sse: SseStream,
  options: FollowOptions = {},
): Task {
  const disposers: (() => void)[] = [];
  let lastState: TaskState | undefined;
  let contextId = '';

  const send = (event: StreamResponse) => {
    if (sse.closed) return;
    sse.send(event);
    const state = event.statusUpdate?.status.state ?? event.task?.status.state;
    if (state) lastState = state;
    if (closesStream(state, options.untilTerminal)) sse.close();
  };

  disposers.push(
    session.onTaskEvent((id, event) => {
      if (id === taskId) send(event);
    }),
  );

  if (options.frames) {
    let loopEmitsFrames = false;
    disposers.push(
      session.trace.subscribe((event) => {
        if (event.task_id !== taskId || sse.closed) return;
        // Streamed text (frame events from a driver that streams) replaces the text derived from
        // the whole turn, which would repeat it; tool frames always come from tool_call/tool_result.
        if (event.event_type === 'frame') loopEmitsFrames = true;
        else if (loopEmitsFrames && event.event_type === 'inference') return;
        const frame = frameOf(event);
        if (!frame) return;
        const status = session.peekTask(taskId, 0)?.status ?? { state: lastState ?? 'TASK_STATE_WORKING' };
        sse.send({ statusUpdate: { taskId, contextId, status, metadata: { [FRAMES_EXTENSION_URI]: frame } } });
      }),
    );
  }

  sse.onClose(() => {
    for (const d of disposers.splice(0)) d();
  });

  // A followed task is live (SubscribeToTask checked it has not ended, SendStreamingMessage just
  // made it): memory holds it. One refused at once has ended already; its snapshot is the answer.
  const task = session.peekTask(taskId) ?? options.accepted;
  if (!task) {
    sse.close();
    throw new Error(`task ${taskId} vanished before its stream opened`);
  }
  contextId = task.contextId ?? '';
  send({ task });
  return task;
}

/**
 * For SseOptions.onCap: the stream's last event is the task's real state. A stream still open
 * follows a live task (it closes at the task's terminal state), which memory holds.
 */
export const capWithRealState = (session: Pick<Session, 'peekTask'>, taskId: string, sse: SseStream) => () => {
  const task = session.peekTask(taskId, 0);
  if (task) sse.send(statusEventOf(task));
};
