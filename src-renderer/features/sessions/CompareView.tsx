import type {
  DiffField,
  DiffTaskRow,
  DiffTaskSide,
  DiffTurnRow,
  DiffTurnSide,
  SessionItemView,
} from '../../../src-shared/contract';
import type { ReactNode } from 'react';
import { useStudio } from '../../store';

// Two runs side by side, aligned by task and turn; what differs is marked (data-changed) and
// named for screen readers.

const tokens = (i: number, o: number) => `${i.toLocaleString()} in / ${o.toLocaleString()} out`;

function Cell({ changed, label, children }: { changed: boolean; label: string; children: ReactNode }) {
  return (
    <div
      className="diff-cell"
      data-changed={changed || undefined}
      aria-label={`${label}${changed ? ' (differs)' : ''}`}
      role="cell"
    >
      {children}
    </div>
  );
}

function Head({ s, side }: { s: SessionItemView; side: string }) {
  return (
    <div className="diff-head">
      <strong>
        {side} · {s.capsule ?? 'session'}
      </strong>
      <span className="mono muted">{s.id}</span>
      <span className="muted">
        {s.driver ?? '?'} · {tokens(s.tokensIn, s.tokensOut)}
        {s.forkedFrom ? ` · fork at turn ${s.forkedFrom.turn}` : ''}
      </span>
    </div>
  );
}

function TaskPair({ row, n }: { row: DiffTaskRow; n: number }) {
  const has = (f: DiffField) => row.differs.includes(f);
  const side = (t: DiffTaskSide | null, f: (t: DiffTaskSide) => ReactNode) =>
    t ? f(t) : <span className="muted">No such task</span>;
  const line = (label: string, field: DiffField, f: (t: DiffTaskSide) => ReactNode) => (
    <div className="diff-row" role="row">
      <div className="diff-label" role="rowheader">
        {label}
      </div>
      <Cell changed={has(field)} label={`Task ${n} ${label}, run A`}>
        {side(row.a, f)}
      </Cell>
      <Cell changed={has(field)} label={`Task ${n} ${label}, run B`}>
        {side(row.b, f)}
      </Cell>
    </div>
  );
  return (
    <section
      className="diff-task"
      aria-label={`Task ${n}${row.differs.length ? `, differs in ${row.differs.join(', ')}` : ', the same'}`}
    >
      <h4 className="diff-task-title">
        Task {n}{' '}
        {row.differs.length ? (
          <span className="diff-badge">differs: {row.differs.join(', ')}</span>
        ) : (
          <span className="muted">same</span>
        )}
      </h4>
      <div role="table" aria-label={`Task ${n} side by side`}>
        {line('Message', 'message', (t) => (
          <p className="diff-text">{t.message}</p>
        ))}
        {row.turns.map((turn) => (
          <TurnPair key={turn.turn} turn={turn} n={n} />
        ))}
        {line('Delegations', 'delegations', (t) =>
          t.delegations.length ? (
            <ul className="diff-list">
              {t.delegations.map((d, i) => (
                <li key={i}>{d}</li>
              ))}
            </ul>
          ) : (
            <span className="muted">none</span>
          ),
        )}
        {line('Answer', 'answer', (t) => (
          <p className="diff-text">{t.answer ?? <span className="muted">no answer</span>}</p>
        ))}
        {line('Ended', 'state', (t) => t.state ?? '—')}
        {line('Tokens', 'tokens', (t) => tokens(t.tokensIn, t.tokensOut))}
      </div>
    </section>
  );
}

function TurnSide({ t, differs }: { t: DiffTurnSide | null; differs: DiffField[] }) {
  if (!t) return <span className="muted">No such turn</span>;
  return (
    <>
      {t.replayed ? <span className="diff-replayed">replayed from the recording</span> : null}
      {t.text ? (
        <p className="diff-text" data-changed={differs.includes('text') || undefined}>
          {t.text}
        </p>
      ) : null}
      {t.calls.length ? (
        <ul className="diff-list mono" data-changed={differs.includes('calls') || undefined}>
          {t.calls.map((c, i) => (
            <li key={i}>{c}</li>
          ))}
        </ul>
      ) : null}
      <span className="muted diff-tokens" data-changed={differs.includes('tokens') || undefined}>
        {tokens(t.tokensIn, t.tokensOut)}
      </span>
    </>
  );
}

function TurnPair({ turn, n }: { turn: DiffTurnRow; n: number }) {
  const changed = turn.differs.length > 0;
  // Only a turn missing on one side is marked whole; otherwise the parts that differ are.
  const whole = !turn.a || !turn.b;
  return (
    <div className="diff-row" role="row">
      <div className="diff-label" role="rowheader">
        Turn {turn.turn}
        {changed ? <span className="diff-badge">{turn.differs.join(', ')}</span> : null}
      </div>
      <Cell
        changed={whole}
        label={`Task ${n} turn ${turn.turn}, run A${changed && !whole ? `, ${turn.differs.join(' and ')} differ` : ''}`}
      >
        <TurnSide t={turn.a} differs={turn.differs} />
      </Cell>
      <Cell
        changed={whole}
        label={`Task ${n} turn ${turn.turn}, run B${changed && !whole ? `, ${turn.differs.join(' and ')} differ` : ''}`}
      >
        <TurnSide t={turn.b} differs={turn.differs} />
      </Cell>
    </div>
  );
}

/** The comparison of two runs, in place of the opened session's trace. */
export function CompareView() {
  const c = useStudio((s) => s.comparison)!;
  return (
    <div className="compare-view" role="region" aria-label="Compare runs">
      <div className="compare-top">
        <h3 className="session-trace-title">Compare runs</h3>
        <span className="muted" role="status">
          {c.changed === 0 ? 'No difference' : `${c.changed} difference${c.changed === 1 ? '' : 's'}`}
          {c.truncated ? ' · only the first tasks and turns are compared' : ''}
        </span>
        <span className="toolbar-spacer" />
        <button type="button" className="btn btn-small" onClick={() => useStudio.getState().closeComparison()}>
          Back to the trace
        </button>
      </div>
      <div className="diff-row diff-heads" aria-label="Runs compared">
        <div className="diff-label" />
        <Head s={c.a} side="A" />
        <Head s={c.b} side="B" />
      </div>
      <div className="compare-body">
        {c.tasks.map((row, i) => (
          <TaskPair key={i} row={row} n={i + 1} />
        ))}
      </div>
    </div>
  );
}
