import type { Task } from '../../src-shared/a2a';
import type { SessionTaskView } from '../../src-shared/contract';
import { invoke } from './client';
import type { TaskRecord } from './state/tasks';

// A stopped capsule's Tasks tab after a reload: the page held its tasks while it watched them, and a
// reloaded page holds none (the door that answered task.list is closed). They are read from the
// trace store's record of the capsule's last session (sessions.get, answered from the trace index),
// as rows of that session: what was asked, how each task ended, what it answered.

/** A task of a recorded session, in the shape the Tasks tab draws (what the trace index kept of it). */
export function taskOfRecord(t: SessionTaskView, contextId?: string): Task {
  const at = t.endedAt ?? t.startedAt;
  const said = t.answer ?? t.failure;
  return {
    id: t.id,
    ...(contextId ? { contextId } : {}),
    status: { state: t.state, ...(at !== null ? { timestamp: new Date(at).toISOString() } : {}) },
    history: t.text !== null ? [{ messageId: `${t.id}-asked`, role: 'ROLE_USER', parts: [{ text: t.text }] }] : [],
    artifacts: said ? [{ artifactId: `${t.id}-answer`, parts: [{ text: said }] }] : [],
  };
}

/** The capsule's last recorded session (by its name) and its tasks, oldest first; none recorded: undefined. */
export async function lastSessionTasks(
  capsuleId: string,
  name: string,
): Promise<{ sessionId: string; records: TaskRecord[] } | undefined> {
  const { sessions } = await invoke('sessions.list', { capsule: name, limit: 20 });
  const last = sessions.find((x) => x.capsule === name);
  if (!last) return undefined;
  const { tasks } = await invoke('sessions.get', { sessionId: last.id });
  const records = [...tasks]
    .sort((a, b) => a.ord - b.ord)
    .map((t): TaskRecord => ({ capsuleId, sessionId: last.id, task: taskOfRecord(t) }));
  return { sessionId: last.id, records };
}
