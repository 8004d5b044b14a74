import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { useStudio, type RemoteFlowNode } from '../../store';

/** A remote A2A agent: what its card says, or why it could not be read. */
function RemoteNodeView({ id, selected }: NodeProps<RemoteFlowNode>) {
  const remote = useStudio((s) => s.remotes[id]);
  if (!remote) return null;
  const name = remote.card?.name ?? hostOf(remote.url);
  const iface = remote.card?.interfaces[0];
  return (
    <div
      className="remote-node"
      role="group"
      aria-label={name}
      data-selected={selected || undefined}
      data-testid="remote-node"
    >
      <Handle type="target" position={Position.Left} aria-label={`Connect to ${name}`} />
      <header className="capsule-node-head">
        <span className="capsule-node-role">remote agent</span>
      </header>
      <div className="capsule-node-name" title={name}>
        {name}
      </div>
      <div className="remote-node-body">
        {remote.error ? (
          <div className="capsule-node-error" style={{ margin: 0 }}>
            {remote.error}
          </div>
        ) : null}
        {remote.card?.skills.length ? (
          <ul className="skill-list" aria-label="Skills">
            {remote.card.skills.slice(0, 6).map((s) => (
              <li key={s.id} title={s.description}>
                {s.name}
              </li>
            ))}
          </ul>
        ) : null}
        <span className="remote-node-url" title="Interface URL">
          {iface ? `${iface.protocolBinding} ${iface.url}` : remote.url}
        </span>
      </div>
    </div>
  );
}

export const RemoteNode = memo(RemoteNodeView);

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
