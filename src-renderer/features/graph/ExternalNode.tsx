import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import type { ExternalFlowNode } from '../../store';

/** An allow entry that matches no capsule or remote: drawn so hand edits stay visible. */
function ExternalNodeView({ data, selected }: NodeProps<ExternalFlowNode>) {
  return (
    <div
      className="external-node"
      role="group"
      aria-label={`External address ${data.address}`}
      data-selected={selected || undefined}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} />
      <div className="external-node-body">
        <span className="capsule-node-role">external address</span>
        <span className="external-node-address">{data.address}</span>
        <span className="muted" style={{ fontSize: 11 }}>
          Allowed, but matches no capsule or agent here: select the edge and press Delete, or edit the allow list
        </span>
      </div>
    </div>
  );
}

export const ExternalNode = memo(ExternalNodeView);
