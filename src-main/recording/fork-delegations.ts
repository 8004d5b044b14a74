import { MAX_FORK_DELEGATIONS, type ForkDelegationView } from '../../src-shared/contract';
import type { RecordedTask } from './tasks';

// The delegations a fork's replayed turns make. Turns before the fork point replay what the
// model did with the recorded message, so an edited message cannot change what they send: the
// fork names them, and lets each one's text be edited for the fork (the worker gets the edit).

export { MAX_FORK_DELEGATIONS };
export type ForkDelegation = ForkDelegationView;

/** A fork's edit of a replayed delegation: `callId` sends `text` instead. */
export interface DelegationEdit {
  callId: string;
  text: string;
}

/** Every delegation of the task's turns before `beforeTurn` (all turns when absent), in call order. */
export function replayedDelegations(task: RecordedTask, beforeTurn = Infinity): ForkDelegation[] {
  return task.turns
    .filter((t) => t.turn < beforeTurn)
    .flatMap((t) =>
      t.toolCalls
        .filter((c) => c.name === 'delegate_task' && c.id)
        .map((c) => ({
          turn: t.turn,
          callId: c.id,
          to: String(c.arguments.to ?? ''),
          text: String(c.arguments.text ?? ''),
          ...(c.modelText !== undefined ? { modelText: c.modelText } : {}),
        })),
    )
    .slice(0, MAX_FORK_DELEGATIONS);
}

/**
 * The task with its replayed delegations' texts replaced; a string naming the problem when an
 * edit is not of a delegation replayed before `beforeTurn`.
 */
export function withEditedDelegations(
  task: RecordedTask,
  beforeTurn: number,
  edits: readonly DelegationEdit[],
): RecordedTask | string {
  const replayed = new Set(replayedDelegations(task, beforeTurn).map((d) => d.callId));
  const byCall = new Map<string, string>();
  for (const e of edits) {
    if (!replayed.has(e.callId)) return `${e.callId} is not a delegation the turns before turn ${beforeTurn} make`;
    byCall.set(e.callId, e.text);
  }
  if (!byCall.size) return task;
  return {
    ...task,
    turns: task.turns.map((t) => ({
      ...t,
      toolCalls: t.toolCalls.map((c) =>
        byCall.has(c.id) ? { ...c, arguments: { ...c.arguments, text: byCall.get(c.id) } } : c,
      ),
    })),
  };
}
