import type { TaskState } from '../a2a/types';

/**
 * Trace events, one JSON object per line of trace.jsonl. Every line has `ts` (RFC 3339 ms),
 * `event_type` and `session_id`; task events add `task_id`. Fields are snake_case (docs/trace-events.md).
 */
export interface TraceBase {
  ts: string;
  event_type: string;
  session_id: string;
  task_id?: string;
}

export interface SessionStartEvent extends TraceBase {
  event_type: 'session_start';
  capsule: string;
  version: string;
  url: string;
  manifest_path: string;
  driver: string;
  model: string;
  pid: number;
  parent_session_id?: string;
  /** The session's records folder. */
  workdir?: string;
  /** A fork: the recorded session, task and turn it starts from; `driver` answers from that turn on. */
  forked_from?: {
    session_id: string;
    task_id: string;
    turn: number;
    driver: 'real' | 'rehearsal';
    edited: boolean;
    message_id: string;
    replayed_tasks?: number;
  };
}
export interface SessionEndEvent extends TraceBase {
  event_type: 'session_end';
  reason: string;
  tasks: number;
  tokens_in: number;
  tokens_out: number;
}
export interface A2ATaskReceivedEvent extends TraceBase {
  event_type: 'a2a_task_received';
  task_id: string;
  context_id: string;
  message_id: string;
  method: string;
  text: string;
  peer?: string;
  traceparent?: string;
}
export interface TaskStartEvent extends TraceBase {
  event_type: 'task_start';
  task_id: string;
  context_id: string;
}
export interface InferenceEvent extends TraceBase {
  event_type: 'inference';
  task_id: string;
  turn: number;
  tokens_in: number;
  tokens_out: number;
  stop_reason: string;
  text?: string;
  tool_calls?: { id: string; name: string; arguments: unknown }[];
  duration_ms: number;
}
export interface ToolCallEvent extends TraceBase {
  event_type: 'tool_call';
  task_id: string;
  call_id: string;
  name: string;
  arguments: unknown;
}
export interface ToolResultEvent extends TraceBase {
  event_type: 'tool_result';
  task_id: string;
  call_id: string;
  name: string;
  ok: boolean;
  result: string;
  /** delegate_task: the delegation, the capsule that took it, and the peer task it made (once its door answered). */
  delegation_id?: string;
  capsule?: string;
  peer_task_id?: string;
  /** delegate_task: the session holding the peer task (a formation capsule's, or a sub-capsule's). */
  child_session_id?: string;
}
export interface TaskFailedEvent extends TraceBase {
  event_type: 'task_failed';
  task_id: string;
  cause: string;
  message: string;
}
export interface TaskCanceledEvent extends TraceBase {
  event_type: 'task_canceled';
  task_id: string;
  interrupted: string;
  in_flight: unknown[];
  /** What the canceled work left running (the residue artifact's items). */
  residue?: unknown[];
  by: string;
}
export interface TaskEndEvent extends TraceBase {
  event_type: 'task_end';
  task_id: string;
  exit_status: 'ok' | 'failed' | 'canceled' | 'rejected' | 'input_required';
  state: TaskState;
  turns: number;
  tokens_in: number;
  tokens_out: number;
  duration_ms: number;
  answer?: string;
}

/** A task that did not fit (queue full, single busy, acceptance none); a task_end follows. */
export interface TaskRejectedEvent extends TraceBase {
  event_type: 'task_rejected';
  task_id: string;
  reason: string;
}
/** The task asked its caller a question (request_input) and waits in TASK_STATE_INPUT_REQUIRED. */
export interface InputRequiredEvent extends TraceBase {
  event_type: 'input_required';
  task_id: string;
  question: string;
}

/** An answer that did not fit the output contract (responds); the model is asked again or the task fails. */
export interface AnswerInvalidEvent extends TraceBase {
  event_type: 'answer_invalid';
  task_id: string;
  turn: number;
  /** `field: problem`, at most five. */
  problems: string[];
}
/** An artifact (or a chunk of one, `append`) the task sent while it worked. */
export interface ArtifactEvent extends TraceBase {
  event_type: 'artifact';
  task_id: string;
  artifact_id: string;
  parts: number;
  append: boolean;
}

/** Any trace line. Events not listed above (a2a_send, harness_*, push_*, …) share TraceBase. */
export type TraceEvent =
  | SessionStartEvent
  | SessionEndEvent
  | A2ATaskReceivedEvent
  | TaskStartEvent
  | InferenceEvent
  | ToolCallEvent
  | ToolResultEvent
  | TaskFailedEvent
  | TaskCanceledEvent
  | TaskEndEvent
  | TaskRejectedEvent
  | InputRequiredEvent
  | AnswerInvalidEvent
  | ArtifactEvent
  | (TraceBase & Record<string, unknown>);
