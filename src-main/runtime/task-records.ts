import type { Artifact, Message, Task, TaskState } from '../../src-shared/a2a';
import { parseTraceLine, streamRawTraceLines, streamTraceLines, taskOfCompact } from '../trace';

// A finished task's content, read back from its session's trace.jsonl (the source of truth). The
// registry keeps only the newest finished tasks whole; an older one is a few fields in memory
// (FinishedTask) and its messages and answer are read from its trace lines when asked for. After a
// restart every task is taken back this way (finishedTasksOf).

/** What the registry keeps of every finished task, whatever its size (a few hundred bytes). */
export interface FinishedTask {
  contextId: string;
  state: TaskState;
  timestamp?: string;
  /** The status message's text; null when the status has none; undefined: read it from the records. */
  statusText?: string | null;
  /** A byte offset of trace.jsonl at or before the task's first line. */
  offset: number;
}

/** The parts of a finished task that live in its trace lines. */
export interface TaskPayload {
  contextId: string;
  history: Message[];
  artifacts?: Artifact[];
  /** The status text the lines imply (task_failed, task_rejected), for status texts not kept. */
  statusText?: string;
  /** The final task as its task_end line holds it (sessions that wrote one). */
  task?: Task;
}

/** A status text longer than this is not kept for an old task; it is read from the records. */
const KEPT_STATUS_TEXT = 512;

/**
 * The status text to keep of a finished task: null for no status message, the text of the
 * standard one (msg_<id>_status, one text part) when short, undefined to read it back.
 */
export function statusTextOf(task: Task): string | null | undefined {
  const m = task.status.message;
  if (!m) return null;
  const text = m.parts[0]?.text;
  const standard =
    m.messageId === `msg_${task.id}_status` &&
    m.role === 'ROLE_AGENT' &&
    m.parts.length === 1 &&
    m.parts[0].mediaType === 'text/plain';
  return standard && typeof text === 'string' && text.length <= KEPT_STATUS_TEXT ? text : undefined;
}

const isTask = (v: unknown): v is Task =>
  !!v && typeof v === 'object' && typeof (v as Task).id === 'string' && !!(v as Task).status;

/** The final task a task_end line holds: `final` (its compact form), or `task` as sessions wrote it before. */
function finalTaskOf(e: Record<string, unknown>): Task | undefined {
  if (isTask(e.task)) return e.task;
  const t = taskOfCompact(e.final);
  return t && t.id === e.task_id ? t : undefined;
}

/** The message a2a_task_received stands for: its own `message` when not plain text, else its text. */
function receivedMessage(e: Record<string, unknown>, id: string, contextId: string): Message {
  const own = e.message as Message | undefined;
  if (own && typeof own === 'object') return { ...own, contextId, taskId: id };
  return {
    messageId: String(e.message_id ?? ''),
    role: 'ROLE_USER',
    parts: [{ text: String(e.text ?? '') }],
    contextId,
    taskId: id,
  };
}

const inputMessage = (id: string, contextId: string, text: string, n: number): Message => ({
  messageId: `msg_${id}_input_${n}`,
  contextId,
  taskId: id,
  role: 'ROLE_AGENT',
  parts: [{ text, mediaType: 'text/plain' }],
});

/**
 * Gathers task `id` of session `sessionId` from trace lines handed over in file order, from a
 * line at or before its first one; `take` says when its task_end was read (the rest is not its).
 * Lines go by the rules every trace reader follows (trace/line.ts): one claiming another session
 * is not this task's, whatever task id it names.
 */
function taskPayloadReader(id: string, sessionId: string) {
  // The writer puts task_id in every line's head: lines of other tasks are skipped unparsed.
  const needle = `"task_id":${JSON.stringify(id)}`;
  const out: TaskPayload = { contextId: '', history: [] };
  let found = false;
  let inputs = 0;
  return {
    /** Takes one line; true once the task's task_end was read. */
    take(text: string): boolean {
      if (!text.includes(needle)) return false;
      const e = parseTraceLine(text);
      if (typeof e === 'string' || e.task_id !== id || (typeof e.session_id === 'string' && e.session_id !== sessionId))
        return false;
      found = true;
      if (typeof e.context_id === 'string' && !out.contextId) out.contextId = e.context_id;
      switch (e.event_type) {
        case 'a2a_task_received':
          out.history.push(receivedMessage(e, id, out.contextId));
          break;
        case 'input_required':
          out.history.push(inputMessage(id, out.contextId, String(e.question ?? ''), ++inputs));
          break;
        case 'task_failed':
          out.statusText = `task failed: ${String(e.message ?? e.cause)}`;
          break;
        case 'task_rejected':
          out.statusText = `task rejected: ${String(e.reason)}`;
          break;
        case 'task_canceled':
          if (Array.isArray(e.residue) && e.residue.length) {
            out.artifacts = [
              {
                artifactId: 'residue',
                name: 'residue',
                parts: e.residue.map((data: unknown) => ({ data, mediaType: 'application/json' })),
              },
            ];
          }
          break;
        case 'task_end':
          out.task = finalTaskOf(e);
          if (e.state === 'TASK_STATE_COMPLETED' && typeof e.answer === 'string') {
            out.artifacts = [
              { artifactId: 'response', name: 'response', parts: [{ text: e.answer, mediaType: 'text/plain' }] },
            ];
          }
          return true;
      }
      return false;
    },
    /** The task as read so far; undefined when no line was its. */
    payload: (): TaskPayload | undefined => (found ? out : undefined),
  };
}

/**
 * Reads task `id` of session `sessionId` from `path`, from `offset` to its task_end line, off the
 * main thread a bounded piece at a time (trace/jsonl.ts), up to where it ended when the read
 * began, and the read stops at the task's task_end line. The caller flushes the trace first.
 */
export async function readTaskPayloadAsync(
  path: string,
  offset: number,
  id: string,
  sessionId: string,
): Promise<TaskPayload | undefined> {
  const reader = taskPayloadReader(id, sessionId);
  try {
    await streamRawTraceLines(path, { start: offset }, (batch) => {
      for (const line of batch) if (reader.take(line.text)) return false;
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  return reader.payload();
}

/** A task of a resumed session: its summary and where its lines begin. */
export interface RecordedTask extends FinishedTask {
  id: string;
}

/**
 * Every task a recorded session holds, from its trace.jsonl: its final state as task_end says, or
 * FAILED, saying so, for a task the old process never ended (a crash mid-task), rather than left
 * working forever. The file is streamed off the main thread a bounded piece at a time
 * (trace/jsonl.ts), so resuming a big session neither blocks the event loop nor holds its trace:
 * only a few fields a task stay.
 */
export async function finishedTasksOf(tracePath: string, sessionId: string): Promise<RecordedTask[]> {
  const tasks = new Map<string, RecordedTask & { failure?: string; rejection?: string }>();
  const take = (e: Record<string, unknown>, offset: number) => {
    const id = typeof e.task_id === 'string' ? e.task_id : undefined;
    if (!id) return;
    let t = tasks.get(id);
    if (!t) {
      t = {
        id,
        contextId: '',
        state: 'TASK_STATE_FAILED',
        statusText: 'the session ended before this task finished',
        offset,
      };
      tasks.set(id, t);
    }
    if (typeof e.context_id === 'string' && !t.contextId) t.contextId = e.context_id;
    if (e.event_type === 'task_failed') {
      // Until a task_end says otherwise (a crash right after it), the failure is the task's end.
      t.statusText = t.failure = `task failed: ${String(e.message ?? e.cause)}`;
      t.timestamp = String(e.ts);
    }
    if (e.event_type === 'task_rejected') t.rejection = `task rejected: ${String(e.reason)}`;
    if (e.event_type !== 'task_end') return;
    t.state = e.state as TaskState;
    t.timestamp = String(e.ts);
    t.statusText = statusTextFromLines(t.state, t.failure, t.rejection);
    const final = finalTaskOf(e);
    if (final) {
      // The final task itself: its own status, exactly.
      t.statusText = statusTextOf(final);
      if (final.status.timestamp) t.timestamp = final.status.timestamp;
    }
  };
  try {
    await streamTraceLines(tracePath, { session: sessionId }, (batch) => {
      for (const l of batch) if ('event' in l) take(l.event, l.offset);
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return [...tasks.values()].map(({ failure: _f, rejection: _r, ...t }) => t);
}

function statusTextFromLines(
  state: TaskState,
  failure: string | undefined,
  rejection: string | undefined,
): string | null {
  switch (state) {
    case 'TASK_STATE_COMPLETED':
      return 'task completed';
    case 'TASK_STATE_FAILED':
      return failure ?? 'task failed';
    case 'TASK_STATE_REJECTED':
      return rejection ?? 'task rejected';
    case 'TASK_STATE_CANCELED':
      return null;
    default:
      return `task ended ${state}`;
  }
}
