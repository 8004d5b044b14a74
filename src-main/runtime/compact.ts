import type { Artifact, Message, Task, TaskState } from '../../src-shared/a2a';

// Finished tasks are kept as one short JSON string each (PERFORMANCE.md: ≤ 1 KB per finished
// task). What the runtime writes the same way every time (the status message, the response
// artifact, the task and context ids on history messages) is left out and rebuilt on read.

type Compact = [
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

export function compactTask(t: Task): string {
  const status = t.status.message ? (isStandardStatus(t.status.message, t) ? (t.status.message.parts[0].text as string) : t.status.message) : null;
  const artifacts = t.artifacts ? (isResponseOnly(t.artifacts) ? (t.artifacts[0].parts[0].text as string) : t.artifacts) : null;
  const history = t.history
    ? t.history.map((m) => {
        if (m.contextId !== t.contextId || m.taskId !== t.id) return m;
        const { contextId: _c, taskId: _t, ...rest } = m;
        return rest as Message;
      })
    : null;
  const c: Compact = [t.id, t.contextId ?? '', t.status.state, t.status.timestamp ?? null, status, artifacts, history];
  return JSON.stringify(c);
}

export function expandTask(json: string): Task {
  const [id, contextId, state, timestamp, status, artifacts, history] = JSON.parse(json) as Compact;
  const task: Task = { id, contextId, status: { state } };
  if (status !== null) {
    task.status.message =
      typeof status === 'string'
        ? { messageId: statusId(id), contextId, taskId: id, role: 'ROLE_AGENT', parts: [{ text: status, mediaType: 'text/plain' }] }
        : status;
  }
  if (timestamp !== null) task.status.timestamp = timestamp;
  if (artifacts !== null) {
    task.artifacts = typeof artifacts === 'string' ? [{ artifactId: 'response', name: 'response', parts: [{ text: artifacts, mediaType: 'text/plain' }] }] : artifacts;
  }
  if (history !== null) {
    task.history = history.map((m) => (m.contextId === undefined && m.taskId === undefined ? { ...m, contextId, taskId: id } : m));
  }
  return task;
}
