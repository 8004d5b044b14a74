import { memo, useContext, useEffect } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { useStudio, type ToolServerFlowNode } from '../../store';
import { CompactContext } from './compact';
import './tool-server.css';

/** Tools listed on the node (the edge's tick list has them all). */
const SHOWN = 8;

/**
 * A tool server (MCP): how it starts or where it is, the tools it lists (tools/list, read once
 * when the node first shows: a local server is started for it and ended), and the latest calls
 * that went through it while capsules ran.
 */
function ToolServerNodeView({ id, selected }: NodeProps<ToolServerFlowNode>) {
  const server = useStudio((s) => s.toolServers[id]);
  const listed = useStudio((s) => s.serverTools[id]);
  const calls = useStudio((s) => (server ? s.toolCalls[server.name.toLowerCase()] : undefined));
  useEffect(() => {
    if (server && !useStudio.getState().serverTools[id]) void useStudio.getState().loadServerTools(id);
  }, [id, server]);
  const compact = useContext(CompactContext);
  if (!server) return null;
  if (compact) {
    // Zoomed out: the name, large enough to read, and a dot that pulses while a call runs through it.
    const busy = calls?.some((c) => c.state === 'running');
    return (
      <div
        className="tool-server-node tool-server-node-compact"
        role="group"
        aria-label={`Tool server ${server.name}`}
        data-selected={selected || undefined}
        data-testid="tool-server-node"
      >
        <Handle type="target" position={Position.Top} isConnectable={false} />
        <span className="capsule-node-state" data-state={busy ? 'busy' : undefined}>
          <span className="state-dot" aria-hidden="true" />
        </span>
        <span className="capsule-node-name">{server.name}</span>
      </div>
    );
  }
  const how = server.url ?? [server.command, ...(server.args ?? [])].join(' ');
  const load = () => void useStudio.getState().loadServerTools(id);
  return (
    <div
      className="tool-server-node"
      role="group"
      aria-label={`Tool server ${server.name}`}
      data-selected={selected || undefined}
      data-testid="tool-server-node"
    >
      <Handle type="target" position={Position.Top} aria-label={`Give a capsule the tools of ${server.name}`} />
      <header className="capsule-node-head">
        <span className="capsule-node-role">tool server (MCP){server.derived ? ' · from a manifest' : ''}</span>
        <button
          type="button"
          className="btn btn-small nodrag"
          onClick={load}
          disabled={listed?.loading}
          aria-label={`List the tools of ${server.name} again`}
        >
          {listed?.loading ? 'Listing…' : 'Refresh'}
        </button>
      </header>
      <div className="capsule-node-name" title={server.name}>
        {server.name}
      </div>
      <div className="remote-node-body">
        <span
          className="remote-node-url"
          title={server.url ? 'Remote server (Streamable HTTP)' : 'Local server: the command it starts'}
        >
          {server.url ? '' : '$ '}
          {how}
        </span>
        {listed?.error ? (
          <div className="capsule-node-error" style={{ margin: 0 }} role="alert">
            {listed.error}
          </div>
        ) : null}
        {listed?.tools ? (
          <ul className="tool-list" aria-label={`Tools of ${server.name}`}>
            {listed.tools.slice(0, SHOWN).map((t) => (
              <li key={t.name} title={t.description}>
                <span className="tool-name">{t.name}</span>
                {t.description ? <span className="tool-desc">{t.description}</span> : null}
              </li>
            ))}
            {listed.tools.length > SHOWN ? <li className="tool-more">and {listed.tools.length - SHOWN} more</li> : null}
          </ul>
        ) : null}
        {calls?.length ? (
          <ul className="tool-calls" aria-label={`Calls through ${server.name}`}>
            {calls.map((c) => (
              <li key={`${c.sessionId}/${c.taskId ?? ''}/${c.callId}`} data-state={c.state}>
                <span className="state-dot" aria-hidden="true" />
                <span className="tool-name">{c.tool}</span>
                <span className="tool-call-meta">
                  {useStudio.getState().capsules[c.capsuleId]?.name ?? c.capsuleId} ·{' '}
                  {c.state === 'running'
                    ? 'running'
                    : c.state === 'ok'
                      ? `ok${c.durationMs !== undefined ? ` ${c.durationMs} ms` : ''}`
                      : 'failed'}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </div>
  );
}

export const ToolServerNode = memo(ToolServerNodeView);
