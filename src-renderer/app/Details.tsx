import { useStudio } from '../store';

/** A remote agent's card, or why it could not be read. */
export function RemoteDetails({ id }: { id: string }) {
  const remote = useStudio((s) => s.remotes[id]);
  if (!remote) return null;
  const card = remote.card;
  return (
    <div className="summary">
      <h2 className="side-title">{card?.name ?? remote.url}</h2>
      <p className="mono muted" style={{ overflowWrap: 'anywhere' }}>
        {remote.url}
      </p>
      {remote.error ? (
        <p className="error-text" role="alert">
          {remote.error}
        </p>
      ) : null}
      {card ? (
        <>
          <p>{card.description}</p>
          <h3 className="summary-sub">Skills</h3>
          <ul>
            {card.skills.map((s) => (
              <li key={s.id}>
                <strong>{s.name}</strong> <span className="muted">{s.description}</span>
              </li>
            ))}
          </ul>
          <h3 className="summary-sub">Interfaces</h3>
          <ul className="mono">
            {card.interfaces.map((i) => (
              <li key={i.url}>
                {i.protocolBinding} {i.url}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <button type="button" className="btn" onClick={() => void useStudio.getState().refreshRemote(id)}>
        Fetch card again
      </button>
    </div>
  );
}

/** A tool server (MCP): its definition, every tool it lists, the capsules with an edge to it, and Edit. */
export function ToolServerDetails({ id }: { id: string }) {
  const server = useStudio((s) => s.toolServers[id]);
  const listed = useStudio((s) => s.serverTools[id]);
  const edges = useStudio((s) => s.edgeViews);
  const capsules = useStudio((s) => s.capsules);
  if (!server) return null;
  const users = edges.filter((e) => e.target === id);
  return (
    <div className="summary">
      <h2 className="side-title">Tool server {server.name}</h2>
      <p className="mono muted" style={{ overflowWrap: 'anywhere' }}>
        {server.url ?? [server.command, ...(server.args ?? [])].join(' ')}
      </p>
      {server.derived ? (
        <p className="muted">Named only by a manifest: moving or editing it adds it to formation.yaml.</p>
      ) : null}
      <div style={{ display: 'flex', gap: 6 }}>
        <button type="button" className="btn" onClick={() => useStudio.getState().askToolServer({ id })}>
          Edit…
        </button>
        <button
          type="button"
          className="btn"
          onClick={() => void useStudio.getState().loadServerTools(id)}
          disabled={listed?.loading}
        >
          List tools again
        </button>
      </div>
      <h3 className="summary-sub">Capsules that may use it</h3>
      {users.length ? (
        <ul>
          {users.map((e) => (
            <li key={e.id}>
              <strong>{capsules[e.source]?.name ?? e.source}</strong>{' '}
              <span className="muted">
                {e.tools ? (e.tools.length ? e.tools.join(', ') : 'no tools') : 'all tools'}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">None yet: drag from a capsule&apos;s bottom handle onto the server.</p>
      )}
      <h3 className="summary-sub">Tools</h3>
      {listed?.error ? (
        <p className="error-text" role="alert">
          {listed.error}
        </p>
      ) : null}
      <ul>
        {(listed?.tools ?? []).map((t) => (
          <li key={t.name}>
            <strong className="mono">{t.name}</strong> <span className="muted">{t.description}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
