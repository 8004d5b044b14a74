import type { Manifest } from '../../src-shared/manifest';
import { newContextId, newMessageId } from '../../src-shared/ids';
import type { Message } from '../../src-shared/a2a';
import { MAX_FORK_PREFIX, type ForkPlan } from '../drivers';
import { formatIssues, loadManifestFile, parseManifest } from '../manifest';
import {
  MAX_FORK_DELEGATIONS,
  replayedDelegations,
  withEditedDelegations,
  type DelegationEdit,
  type ForkDelegation,
} from './fork-delegations';
import { scriptFromTasks, type RehearsalScript } from './script';
import type { RecordedSession, RecordedTask } from './tasks';
import { rehearsalManifestText } from './write';

// Fork from a recorded task at a turn: what the new session needs to start (its manifest and the
// plan its driver follows) and the message it is sent. Turns before the fork point replay the
// recording; from it on the capsule's configured driver answers ("real"), or the recording's
// rehearsal does ("rehearsal": the whole task replays, so only the message may differ).

/** The longest message a fork may be given (the same bound a door puts on a task's text). */
export const MAX_FORK_MESSAGE = 100_000;
/** The most earlier tasks of the context a fork replays before its own (the latest ones). */
export const MAX_EARLIER_TASKS = 64;

export interface ForkRequest {
  taskId: string;
  /** 1-based inference turn from which the driver answers; turns before it replay the recording. */
  turn: number;
  /** Replaces the recorded task's message (its text); absent keeps it. */
  message?: string;
  /** What replayed delegations (turns before `turn`) send instead of their recorded text. */
  delegations?: DelegationEdit[];
  driver: 'real' | 'rehearsal';
  env: Record<string, string | undefined>;
}

export interface PreparedFork {
  plan: ForkPlan;
  manifestPath: string;
  /** The manifest to run (the rehearsal's, or the capsule's own as it is on disk now). */
  manifest: Manifest;
  /** Values interpolated into the manifest: masked in the fork's trace like any session's. */
  secrets: string[];
  /** The message the fork session is sent (after the earlier tasks' messages, in their context). */
  message: Message;
  /** The earlier tasks' messages, replayed first in the fork's context. */
  earlier: Message[];
  capsule: string;
  task: RecordedTask;
}

export class ForkError extends Error {
  constructor(
    readonly code: 'not_found' | 'invalid_input' | 'manifest_invalid',
    message: string,
  ) {
    super(message);
  }
}

/** The recorded task's turns as rehearsal turns (no delays: a fork replays at once). */
function recordedTurns(session: RecordedSession, task: RecordedTask) {
  return scriptFromTasks([task], { sessionId: session.sessionId, speed: 0 }).script.replies?.[0]?.turns ?? [];
}

function rehearsalManifest(
  session: RecordedSession,
  task: RecordedTask,
  messageId: string,
  path: string,
  env: ForkRequest['env'],
): { manifest: Manifest; secrets: string[] } {
  const whole = scriptFromTasks(session.tasks, { sessionId: session.sessionId, speed: 0 }).script;
  // The forked task replays all of its recording whatever its message says; the session's other
  // tasks are rehearsed as `capsule rehearse` would.
  const script: RehearsalScript = {
    ...whole,
    replies: [{ message_id: messageId, turns: recordedTurns(session, task) }, ...(whole.replies ?? [])],
  };
  const capsule = {
    capsule: session.capsule,
    version: session.version,
    model: session.model,
    driver: session.driver,
    manifestPath: path,
    sessionIds: [session.sessionId],
    tasks: session.tasks,
  };
  const loaded = parseManifest(rehearsalManifestText(capsule, script, []), path, env);
  if (!loaded.ok)
    throw new ForkError(
      'manifest_invalid',
      `The rehearsal of ${session.capsule} does not load:\n${formatIssues(loaded.issues)}`,
    );
  return { manifest: loaded.manifest, secrets: loaded.secrets };
}

function taskOf(session: RecordedSession, taskId: string): RecordedTask {
  const task = session.tasks.find((t) => t.taskId === taskId);
  if (!task) throw new ForkError('not_found', `Session ${session.sessionId} has no task ${taskId}.`);
  return task;
}

/** What a fork of the task can change: its message, the turns to start from, the delegations that may replay. */
export function forkOptions(
  session: RecordedSession,
  taskId: string,
): { message: string; lastTurn: number; delegations: ForkDelegation[] } {
  const task = taskOf(session, taskId);
  return { message: task.text, lastTurn: Math.max(1, task.turns.length), delegations: replayedDelegations(task) };
}

export function prepareFork(session: RecordedSession, req: ForkRequest): PreparedFork {
  const task = taskOf(session, req.taskId);
  const last = Math.max(1, task.turns.length);
  if (!Number.isInteger(req.turn) || req.turn < 1 || req.turn > last)
    throw new ForkError('invalid_input', `Task ${req.taskId} can be forked at turn 1 to ${last}, not ${req.turn}.`);
  if (req.turn - 1 > MAX_FORK_PREFIX)
    throw new ForkError('invalid_input', `A fork replays at most ${MAX_FORK_PREFIX} recorded turns.`);
  if (req.message !== undefined && (!req.message.trim() || req.message.length > MAX_FORK_MESSAGE))
    throw new ForkError('invalid_input', `A fork's message must be 1 to ${MAX_FORK_MESSAGE} characters.`);
  const edits = req.delegations ?? [];
  if (edits.length > MAX_FORK_DELEGATIONS)
    throw new ForkError('invalid_input', `A fork edits at most ${MAX_FORK_DELEGATIONS} delegations.`);
  if (edits.some((e) => !e.text.trim() || e.text.length > MAX_FORK_MESSAGE))
    throw new ForkError('invalid_input', `A delegation's text must be 1 to ${MAX_FORK_MESSAGE} characters.`);
  // The replayed turns as the fork runs them: with the delegations' texts as edited for the fork.
  const replayed = withEditedDelegations(task, req.turn, edits);
  if (typeof replayed === 'string') throw new ForkError('invalid_input', `Cannot edit that delegation: ${replayed}.`);
  const path = session.manifestPath;
  if (!path) throw new ForkError('not_found', `The trace of ${session.sessionId} names no manifest to fork.`);
  const messageId = newMessageId();
  const text = req.message ?? task.text;
  let loaded: { manifest: Manifest; secrets: string[] };
  if (req.driver === 'rehearsal') loaded = rehearsalManifest(session, replayed, messageId, path, req.env);
  else {
    const own = loadManifestFile(path, req.env);
    if (!own.ok)
      throw new ForkError('manifest_invalid', `Cannot fork ${session.capsule}: ${path}:\n${formatIssues(own.issues)}`);
    loaded = own;
  }
  const { manifest, secrets } = loaded;
  if (manifest.inference.transport === 'process')
    throw new ForkError(
      'invalid_input',
      `${session.capsule} runs a harness CLI with its own loop: its turns cannot be replayed into it.`,
    );
  // The recorded task's conversation so far: the tasks of its context before it (those that made
  // turns; one that ended without a turn added nothing the model saw).
  const at = session.tasks.indexOf(task);
  const before = task.contextId
    ? session.tasks
        .slice(0, at)
        .filter((t) => t.contextId === task.contextId && t.turns.length > 0)
        .slice(-MAX_EARLIER_TASKS)
    : [];
  const contextId = newContextId();
  const earlier = before.map((t) => ({ messageId: newMessageId(), text: t.text, turns: recordedTurns(session, t) }));
  const plan: ForkPlan = {
    from: { sessionId: session.sessionId, taskId: task.taskId, turn: req.turn },
    messageId,
    prefix: recordedTurns(session, replayed).slice(0, req.turn - 1),
    ...(earlier.length ? { earlier } : {}),
    driver: req.driver,
    edited: text !== task.text || replayed !== task,
    ...(replayed !== task ? { editedDelegations: new Set(edits.map((e) => e.callId)).size } : {}),
  };
  const message: Message = { messageId, role: 'ROLE_USER', parts: [{ text }], contextId };
  const earlierMessages: Message[] = earlier.map((e) => ({
    messageId: e.messageId,
    role: 'ROLE_USER',
    parts: [{ text: e.text }],
    contextId,
  }));
  return {
    plan,
    manifestPath: path,
    manifest,
    secrets,
    message,
    earlier: earlierMessages,
    capsule: session.capsule,
    task,
  };
}
