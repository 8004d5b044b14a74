import type { Manifest, RehearsalTurn } from '../../src-shared/manifest';
import { createRehearsalDriver } from './rehearsal';
import type { Driver } from './types';

// A fork of a recorded task: its turns before the fork point come from the recording (replayed
// by the rehearsal driver, so a tool result that differs from the recorded one is traced as
// rehearsal_diverged), and from the fork point on the capsule's own driver answers, seeing the
// conversation the replayed turns built (its user message, edited or not, included).

/** The most recorded turns a fork replays before handing over (a task of more is cut there). */
export const MAX_FORK_PREFIX = 256;

export interface ForkPlan {
  /** The recorded session, task and turn the fork starts from (session_start.forked_from). */
  from: { sessionId: string; taskId: string; turn: number };
  /** The fork task's message id: only the task it starts replays the recording. */
  messageId: string;
  /** The recorded turns before `from.turn`, as rehearsal turns (at most MAX_FORK_PREFIX). */
  prefix: RehearsalTurn[];
  /**
   * The tasks of the recorded task's context that came before it, replayed whole first (in this
   * order, in one context) so the driver sees the conversation the recorded task had.
   */
  earlier?: { messageId: string; text: string; turns: RehearsalTurn[] }[];
  /** Who answers from the fork point: the capsule's configured driver, or the recording's rehearsal. */
  driver: 'real' | 'rehearsal';
  /** The fork's message, or a replayed delegation's text, differs from the recorded one. */
  edited: boolean;
  /** How many replayed delegations send an edited text. */
  editedDelegations?: number;
}

/** What session_start says of a fork (no message text: the task's own lines carry it, masked). */
export function forkedFromLine(plan: ForkPlan): Record<string, unknown> {
  return {
    session_id: plan.from.sessionId,
    task_id: plan.from.taskId,
    turn: plan.from.turn,
    driver: plan.driver,
    edited: plan.edited,
    ...(plan.editedDelegations ? { edited_delegations: plan.editedDelegations } : {}),
    message_id: plan.messageId,
    ...(plan.earlier?.length ? { replayed_tasks: plan.earlier.length } : {}),
  };
}

export function createForkDriver(inner: Driver, manifest: Manifest, plan: ForkPlan): Driver {
  // Message id -> how many of its task's turns come from the recording.
  const replayed = new Map<string, number>([[plan.messageId, Math.min(plan.prefix.length, MAX_FORK_PREFIX)]]);
  const replies = [{ message_id: plan.messageId, turns: plan.prefix.slice(0, MAX_FORK_PREFIX) }];
  for (const e of plan.earlier ?? []) {
    replayed.set(e.messageId, Math.min(e.turns.length, MAX_FORK_PREFIX));
    replies.push({ message_id: e.messageId, turns: e.turns.slice(0, MAX_FORK_PREFIX) });
  }
  const recorded = createRehearsalDriver({
    ...manifest,
    inference: { ...manifest.inference, rehearsal: { recorded_from: plan.from.sessionId, delay_ms: 0, replies } },
  });
  return {
    kind: inner.kind,
    model: inner.model,
    ...(inner.structuredOutput ? { structuredOutput: inner.structuredOutput } : {}),
    ...(inner.answersAsMessage ? { answersAsMessage: (text, message) => inner.answersAsMessage!(text, message) } : {}),
    turn(req) {
      const id = req.taskMessage?.messageId;
      return id !== undefined && req.turn <= (replayed.get(id) ?? 0) ? recorded.turn(req) : inner.turn(req);
    },
    dispose: () => inner.dispose?.(),
  };
}
