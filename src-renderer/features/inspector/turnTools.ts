import type { DelegationPhase } from '../../store';
import { DELEGATION_WORD } from '../../ui/delegationWords';
import { formatMs } from './figures';
import type { TurnView } from './taskTrace';

// The Tools cell of a turn in the Turns table. Its delegate_task calls read as the task's
// Delegations list reads them (the same phases, from the shared trace reading and the core's
// breakpoint record): a delegation answered while its tool result waits for a sibling reads
// answered, one held at a breakpoint reads paused, never both as "running".

/** Where one tool call of a turn stands. */
export type CallPhase = DelegationPhase | 'done';

/** The order the states are counted in: what ended first, then what is still out. */
const ORDER: readonly CallPhase[] = ['answered', 'done', 'failed', 'canceled', 'paused', 'running'];
const WORD: Record<CallPhase, string> = { ...DELEGATION_WORD, done: 'done' };

/**
 * One call's phase: a delegation's is the one its Delegations row shows (`delegations`, by call
 * id); any other call is done or failed once its result is in, else still running, or canceled
 * when its task ended without the result.
 */
export function callPhase(
  call: TurnView['tools'][number],
  delegations: ReadonlyMap<string, DelegationPhase>,
  taskEnded: boolean,
): CallPhase {
  const delegation = delegations.get(call.callId);
  if (delegation) return delegation;
  if (call.durationMs !== undefined) return call.ok ? 'done' : 'failed';
  return taskEnded ? 'canceled' : 'running';
}

/**
 * The cell's text and tooltip: the number of calls and, once every result is in, the time they
 * took ("2 · 1.2 s"); before that, how many stand where ("2 · 1 answered, 1 paused").
 */
export function turnToolsCell(
  turn: TurnView,
  delegations: ReadonlyMap<string, DelegationPhase>,
  taskEnded: boolean,
): { text: string; title: string } {
  if (turn.tools.length === 0) return { text: '–', title: '' };
  const phases = turn.tools.map((c) => callPhase(c, delegations, taskEnded));
  const title = turn.tools
    .map((c, i) =>
      c.durationMs === undefined
        ? `${c.name} (${WORD[phases[i]]})`
        : `${c.name} ${formatMs(c.durationMs)}${phases[i] === 'done' || phases[i] === 'answered' ? '' : `, ${WORD[phases[i]]}`}`,
    )
    .join('\n');
  const allIn = turn.tools.every((c) => c.durationMs !== undefined);
  if (allIn && turn.toolsMs !== null) return { text: `${turn.tools.length} · ${formatMs(turn.toolsMs)}`, title };
  const counts = ORDER.map((p) => [p, phases.filter((x) => x === p).length] as const).filter(([, n]) => n > 0);
  return { text: `${turn.tools.length} · ${counts.map(([p, n]) => `${n} ${WORD[p]}`).join(', ')}`, title };
}
