import type { Artifact, Message, Part, Task } from '../../src-shared/a2a';
import type { ArtifactChunk } from '../drivers';
import type { SessionCore } from './core';
import type { TaskOutcome } from './executor';
import type { LiveTask } from './tasks';

// How a task's answer becomes A2A: the `response` artifact (its text, and the structured answer
// as a data part beside it), artifacts and chunks of them while the task works, and the Message a
// blocking SendMessage gets instead of the Task when the answer is given as a message.

type Answered = Extract<TaskOutcome, { ok: true }>;

/** Parts of the response: the text first (what text-only callers read), then data, then the rest. */
export function responseParts(outcome: Answered): Part[] {
  const parts: Part[] = [{ text: outcome.answer, mediaType: 'text/plain' }];
  if (outcome.data !== undefined) parts.push({ data: outcome.data, mediaType: 'application/json' });
  if (outcome.parts) parts.push(...outcome.parts);
  return parts;
}

export function responseArtifact(outcome: Answered): Artifact {
  return { artifactId: 'response', name: 'response', parts: responseParts(outcome) };
}

/** The status message of a task answered as a Message: its id says so (see replyMessageOf). */
export function replyMessage(t: Pick<LiveTask, 'id' | 'contextId'>, outcome: Answered): Message {
  return {
    messageId: replyId(t.id),
    contextId: t.contextId,
    taskId: t.id,
    role: 'ROLE_AGENT',
    parts: responseParts(outcome),
  };
}

const replyId = (taskId: string) => `msg_${taskId}_reply`;

/**
 * The Message a blocking SendMessage answers with, when the task was answered as a message;
 * undefined for every other task. The message names no task: to the caller there is none.
 */
export function replyMessageOf(task: Task): Message | undefined {
  const m = task.status.message;
  if (task.status.state !== 'TASK_STATE_COMPLETED' || !m || m.messageId !== replyId(task.id)) return undefined;
  const { taskId: _task, ...message } = m;
  return message;
}

/** Most artifacts (and chunks) one task may produce; past it they are dropped and traced once. */
export const MAX_ARTIFACT_CHUNKS = 1000;

/**
 * Adds an artifact, or appends a chunk to the one with the same id, and emits the update the
 * streams and push deliveries carry (append and lastChunk as the producer said).
 */
export function addArtifactChunk(core: SessionCore, t: LiveTask, chunk: ArtifactChunk, count: { n: number }): void {
  if (++count.n > MAX_ARTIFACT_CHUNKS) {
    if (count.n === MAX_ARTIFACT_CHUNKS + 1)
      core.trace.append({
        event_type: 'artifact_dropped',
        task_id: t.id,
        reason: `more than ${MAX_ARTIFACT_CHUNKS} artifact updates`,
      });
    return;
  }
  const list = (t.artifacts ??= []);
  const { artifact } = chunk;
  const earlier = chunk.append ? list.find((a) => a.artifactId === artifact.artifactId) : undefined;
  if (earlier) earlier.parts = [...earlier.parts, ...artifact.parts];
  else list.push({ ...artifact, parts: [...artifact.parts] });
  core.registry.emit(t.id, {
    artifactUpdate: {
      taskId: t.id,
      contextId: t.contextId,
      artifact,
      ...(earlier ? { append: true } : {}),
      lastChunk: chunk.lastChunk ?? true,
    },
  });
  core.trace.append({
    event_type: 'artifact',
    task_id: t.id,
    artifact_id: artifact.artifactId,
    parts: artifact.parts.length,
    append: !!earlier,
  });
}
