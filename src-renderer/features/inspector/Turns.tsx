import { useMemo } from 'react';
import { delegationPhase, useStudio, type DelegationPhase } from '../../store';
import type { DelegationView, TaskFigures } from './taskTrace';
import { formatMs, formatTokens, formatUsd } from './figures';
import { turnToolsCell } from './turnTools';

/** Each turn of the task: when it started, the model's time, its tool calls, tokens and cost. */
export function Turns({
  taskId,
  figures,
  delegations,
  ended,
  model,
  priced,
  onFork,
}: {
  taskId: string;
  figures: TaskFigures;
  /** The task's delegations, as its Delegations section lists them: their calls read the same here. */
  delegations: readonly DelegationView[];
  ended: boolean;
  model: string | null;
  priced: boolean;
  onFork?: (turn: number) => void;
}) {
  const { turns } = figures;
  // One string, so the table re-renders only when a delegation's phase moves.
  const phaseList = useStudio((s) => delegations.map((d) => delegationPhase(s, taskId, d)).join(' '));
  const phases = useMemo(() => {
    const list = phaseList.split(' ') as DelegationPhase[];
    return new Map(delegations.map((d, i) => [d.callId, list[i]]));
  }, [phaseList, delegations]);
  if (turns.length === 0) return <p className="muted">No turn has ended yet.</p>;
  return (
    <>
      <table className="turns" aria-label="Turns">
        <thead>
          <tr>
            <th scope="col">Turn</th>
            <th scope="col">Start</th>
            <th scope="col">Model</th>
            <th scope="col">Tools</th>
            <th scope="col" title="Tokens in / out">
              Tokens
            </th>
            {priced ? <th scope="col">Cost</th> : null}
          </tr>
        </thead>
        <tbody>
          {turns.map((t) => {
            const tools = turnToolsCell(t, phases, ended);
            return (
              <tr key={t.turn} aria-label={`Turn ${t.turn}`}>
                <td>
                  {t.turn}
                  {/* In the turn's own cell, not a column of its own: the table fits the narrowest panel. */}
                  {onFork ? (
                    <button
                      type="button"
                      className="link-button turns-fork"
                      aria-label={`Fork from turn ${t.turn}`}
                      title="Run the task again from this turn: the turns before it replay the recording"
                      onClick={() => onFork(t.turn)}
                    >
                      Fork…
                    </button>
                  ) : null}
                </td>
                <td>{t.offsetMs === null ? '–' : `+${formatMs(t.offsetMs)}`}</td>
                <td>{formatMs(t.modelMs)}</td>
                <td className="turns-tools" title={tools.title}>
                  {tools.text}
                </td>
                <td>
                  {formatTokens(t.tokensIn)} / {formatTokens(t.tokensOut)}
                </td>
                {priced ? <td>{t.costUsd === null ? '–' : formatUsd(t.costUsd)}</td> : null}
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr aria-label="Task total">
            <th scope="row">All</th>
            <td>{figures.wallMs === null ? '' : formatMs(figures.wallMs)}</td>
            <td>{formatMs(figures.modelMs)}</td>
            <td>{turns.reduce((n, t) => n + t.tools.length, 0) || '–'}</td>
            <td>
              {formatTokens(figures.tokensIn)} / {formatTokens(figures.tokensOut)}
            </td>
            {priced ? <td>{figures.costUsd === null ? '–' : formatUsd(figures.costUsd)}</td> : null}
          </tr>
        </tfoot>
      </table>
      <p className="muted turns-note" aria-label="Cost">
        {priced && figures.costUsd !== null
          ? `Cost ${formatUsd(figures.costUsd)} at ${model}'s list price (cache discounts not counted).`
          : `No cost: the price table does not know the model ${model ?? '(unknown)'}.`}
      </p>
    </>
  );
}
