import type { Artifact, Message, Task, TaskState } from '../../src-shared/a2a';

// A finished task in its compact form: the registry keeps the newest ones as this JSON (≤ 1 KB per
// finished task), and a task_end line carries it as `final` (the final task, as GetTask answers
// it). What the runtime writes the same way every time (the status message, the response
// artifact, the task and context ids on history messages) is left out and rebuilt on read.

export type CompactTask = [
  id: string,
  contextId: string,
  state: TaskState,
  timestamp: string | null,
  /** The standard status message's text, or the whole message, or null. */
  status: string | Message | null,
  /** The response text, or the artifacts as they were, or null. */
  artifacts: string | Artifact[] | null,
  /** History without the task's own ids. */
  history: Message[] | null,
];

const statusId = (taskId: string) => `msg_${taskId}_status`;

function isStandardStatus(m: Message, t: Task): boolean {
  const p = m.parts;
  return (
    m.messageId === statusId(t.id) &&
    m.role === 'ROLE_AGENT' &&
    m.contextId === t.contextId &&
    m.taskId === t.id &&
    p.length === 1 &&
    typeof p[0].text === 'string' &&
    p[0].mediaType === 'text/plain' &&
    Object.keys(p[0]).length === 2 &&
    Object.keys(m).length === 5
  );
}

function isResponseOnly(a: Artifact[]): boolean {
  if (a.length !== 1) return false;
  const r = a[0];
  const p = r.parts;
  return (
    r.artifactId === 'response' &&
    r.name === 'response' &&
    Object.keys(r).length === 3 &&
    p.length === 1 &&
    typeof p[0].text === 'string' &&
    p[0].mediaType === 'text/plain' &&
    Object.keys(p[0]).length === 2
  );
}

/**
 * A history message without its task's ids, its other keys in their order: as `{ contextId,
 * taskId, ...rest }` would give `rest`, without the key list that rest builds for each message.
 */
function withoutIds(m: Message): Message {
  // An own __proto__ key (JSON.parse makes one) must stay a key, not become the copy's prototype.
  if (Object.hasOwn(m, '__proto__')) {
    const { contextId: _c, taskId: _t, ...rest } = m;
    return rest as Message;
  }
  const from = m as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k in from) if (k !== 'contextId' && k !== 'taskId' && Object.hasOwn(from, k)) out[k] = from[k];
  return out as unknown as Message;
}

/** The compact form of a finished task (an array, as JSON writes it). */
export function compactOf(t: Task): CompactTask {
  const status = t.status.message
    ? isStandardStatus(t.status.message, t)
      ? (t.status.message.parts[0].text as string)
      : t.status.message
    : null;
  const artifacts = t.artifacts
    ? isResponseOnly(t.artifacts)
      ? (t.artifacts[0].parts[0].text as string)
      : t.artifacts
    : null;
  const history = t.history
    ? t.history.map((m) => (m.contextId !== t.contextId || m.taskId !== t.id ? m : withoutIds(m)))
    : null;
  return [t.id, t.contextId ?? '', t.status.state, t.status.timestamp ?? null, status, artifacts, history];
}

export const compactTask = (t: Task): string => JSON.stringify(compactOf(t));

export const expandTask = (json: string): Task => fromCompact(JSON.parse(json) as CompactTask);

const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The task a compact form read from disk stands for, or undefined when it is not one (a line from
 * elsewhere, edited, or torn): a reader then rebuilds the task from the other lines.
 */
export function taskOfCompact(v: unknown): Task | undefined {
  if (!Array.isArray(v) || v.length !== 7) return undefined;
  const [id, contextId, state, timestamp, status, artifacts, history] = v as unknown[];
  if (typeof id !== 'string' || typeof contextId !== 'string' || typeof state !== 'string') return undefined;
  if (timestamp !== null && typeof timestamp !== 'string') return undefined;
  if (status !== null && typeof status !== 'string' && !(isObject(status) && Array.isArray((status as Message).parts)))
    return undefined;
  if (artifacts !== null && typeof artifacts !== 'string' && !(Array.isArray(artifacts) && artifacts.every(isObject)))
    return undefined;
  if (history !== null && !(Array.isArray(history) && history.every(isObject))) return undefined;
  return fromCompact(v as CompactTask);
}

function fromCompact([id, contextId, state, timestamp, status, artifacts, history]: CompactTask): Task {
  const task: Task = { id, contextId, status: { state } };
  if (status !== null) {
    task.status.message =
      typeof status === 'string'
        ? {
            messageId: statusId(id),
            contextId,
            taskId: id,
            role: 'ROLE_AGENT',
            parts: [{ text: status, mediaType: 'text/plain' }],
          }
        : status;
  }
  if (timestamp !== null) task.status.timestamp = timestamp;
  if (artifacts !== null) {
    task.artifacts =
      typeof artifacts === 'string'
        ? [{ artifactId: 'response', name: 'response', parts: [{ text: artifacts, mediaType: 'text/plain' }] }]
        : artifacts;
  }
  if (history !== null) {
    task.history = history.map((m) =>
      m.contextId === undefined && m.taskId === undefined ? { ...m, contextId, taskId: id } : m,
    );
  }
  return task;
}
