import { memo } from 'react';
import { BaseEdge, EdgeLabelRenderer, getBezierPath, type EdgeProps } from '@xyflow/react';
import type { FlowEdge } from '../../store';

/** An edge orchestrator -> target: an allow entry. Its address shows when selected or external. */
function PermissionEdgeView(props: EdgeProps<FlowEdge>) {
  const [path, labelX, labelY] = getBezierPath(props);
  const showLabel = props.selected || props.data?.targetKind === 'external';
  return (
    <>
      <BaseEdge id={props.id} path={path} markerEnd={props.markerEnd} style={props.data?.targetKind === 'external' ? { strokeDasharray: '5 4' } : undefined} />
      {showLabel && props.data ? (
        <EdgeLabelRenderer>
          <div className="edge-label" style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}>
            {props.data.address}
          </div>
        </EdgeLabelRenderer>
      ) : null}
    </>
  );
}

export const PermissionEdge = memo(PermissionEdgeView);
