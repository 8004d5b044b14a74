import type { ResidueView, StopSessionAnswer } from '../../../src-shared/contract';
import { describeResidue, residueKey } from '../../../src-shared/residue';

/** What Stop session or Cancel all tasks canceled, and what the session left behind. */
export function StopResult({ answer }: { answer: StopSessionAnswer & { error?: string } }) {
  const what = answer.ended ? 'Stop session' : 'Cancel all tasks';
  const n = answer.canceled.length;
  return (
    <div className="inspector-result" role="status" aria-label={`${what} result`}>
      {answer.error ? (
        <span className="error-text">
          {what} failed: {answer.error}
        </span>
      ) : (
        <>
          <strong>
            {what}: {n} task{n === 1 ? '' : 's'} canceled.
          </strong>{' '}
          {n ? <span className="mono">{answer.canceled.join(', ')}</span> : 'Nothing was running.'}
          <Residue items={answer.residue} sessionEnded={answer.ended} />
          <div className="muted">
            {answer.ended
              ? 'The session has ended; Launch starts a new one.'
              : 'The capsule keeps answering new tasks.'}
          </div>
        </>
      )}
    </div>
  );
}

/**
 * What a cancel left behind: detached shell commands still running, delegations it ended. When the
 * session ended too, its end stopped the shell commands as well, and they are listed as ended.
 */
export function Residue({ items, sessionEnded = false }: { items: ResidueView[]; sessionEnded?: boolean }) {
  if (items.length === 0) return <div className="muted">Nothing was left running.</div>;
  const running = sessionEnded ? [] : items.filter((r) => describeResidue(r).status === 'running');
  const ended = items.filter((r) => !running.includes(r));
  return (
    <div className="residue-groups">
      {running.length ? (
        <div>
          Left running:
          <ul className="residue" aria-label="Left running">
            {running.map((r) => (
              <ResidueRow key={residueKey(r)} item={r} />
            ))}
          </ul>
        </div>
      ) : sessionEnded ? null : (
        <div className="muted">Nothing was left running.</div>
      )}
      {ended.length ? (
        <div>
          Ended:
          <ul className="residue" aria-label="Ended">
            {ended.map((r) => (
              <ResidueRow key={residueKey(r)} item={r} sessionEnded={sessionEnded} />
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

function ResidueRow({ item, sessionEnded = false }: { item: ResidueView; sessionEnded?: boolean }) {
  if (item.kind === 'detached_shell') {
    return (
      <li>
        shell <code>{item.command}</code> ({item.binary}){sessionEnded ? ', stopped with the session' : ''}
      </li>
    );
  }
  if (item.kind === 'mcp_server') {
    return (
      <li>
        MCP server {item.server} <code>{item.command}</code> (pid {item.pid})
        {sessionEnded ? ', stopped with the session' : ''}
      </li>
    );
  }
  return (
    <li>
      delegation to {item.capsule}
      {item.version ? `@${item.version}` : ''}
      {item.child_session_id ? (
        <>
          , session <code>{item.child_session_id}</code>
        </>
      ) : null}
    </li>
  );
}
