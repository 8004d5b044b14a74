import type { Task } from '../../src-shared/a2a';
import type { SessionTaskView } from '../../src-shared/contract';
import { invoke } from './client';
import type { TaskRecord } from './state/tasks';

// A stopped capsule's Tasks tab after a reload: the page held its tasks while it watched them, and a
// reloaded page holds none (the door that answered task.list is closed). They are read from the
// trace store's record of the session that ran the capsule's last task (sessions.get, answered from the trace index),
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

/**
 * The tasks of the session that ran the capsule's last task (the capsule's record names it), oldest
 * first. Read by its id, never by the capsule's name: the records hold every workspace's sessions,
 * and another workspace may have a capsule of the same name.
 */
export async function lastSessionTasks(capsuleId: string, sessionId: string): Promise<TaskRecord[]> {
  const { tasks } = await invoke('sessions.get', { sessionId });
  return [...tasks]
    .sort((a, b) => a.ord - b.ord)
    .map((t): TaskRecord => ({ capsuleId, sessionId, task: taskOfRecord(t) }));
}
