import { memo } from 'react';
import { BaseEdge, EdgeLabelRenderer, getBezierPath, useStore, type EdgeProps } from '@xyflow/react';
import { useStudio, type FlowEdge } from '../../store';
import './flow.css';

/**
 * An edge capsule -> tool server: the capsule's capabilities.mcp.servers entry. Its label says how
 * many of the server's tools the capsule may call; selected, it lists them with a tick each, and
 * unticking one narrows the entry's `tools` (one undo step per change).
 */
function ToolEdgeView(props: EdgeProps<FlowEdge>) {
  const listed = useStudio((s) => s.serverTools[props.target]?.tools);
  const capsule = useStudio((s) => s.capsules[props.source]?.name ?? props.source);
  const [path, labelX, labelY] = getBezierPath(props);
  const allowed = props.data?.tools;
  const names = [...new Set([...(listed ?? []).map((t) => t.name), ...(allowed ?? [])])];
  const summary =
    allowed === undefined
      ? 'all tools'
      : `${allowed.length}${listed ? ` of ${listed.length}` : ''} tool${allowed.length === 1 ? '' : 's'}`;
  const toggle = (name: string, on: boolean) => {
    const base = allowed ?? names;
    const next = on ? [...base, name] : base.filter((n) => n !== name);
    // Every listed tool ticked again is "all tools": the entry's list goes.
    const all =
      listed !== undefined &&
      listed.every((t) => next.includes(t.name)) &&
      next.every((n) => listed.some((t) => t.name === n));
    void useStudio.getState().setEdgeTools(props.id, all ? null : names.filter((n) => next.includes(n)));
  };
  return (
    <>
      <BaseEdge id={props.id} path={path} markerEnd={props.markerEnd} className="tool-edge" />
      <EdgeLabelRenderer>
        <div
          className="edge-labels tool-edge-labels nodrag nopan"
          data-edge={props.id}
          style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
        >
          <div className="edge-label tool-edge-label">{summary}</div>
          {props.selected ? <ToolTicks capsule={capsule} names={names} allowed={allowed} onToggle={toggle} /> : null}
        </div>
      </EdgeLabelRenderer>
    </>
  );
}

/**
 * The tick list of a selected edge. It keeps its size on screen whatever the zoom (the canvas scales
 * everything in it; the list scales back by 1/zoom), so it stays readable zoomed out and does not
 * swell over the graph zoomed in. Only the selected edge's list follows the zoom.
 */
function ToolTicks({
  capsule,
  names,
  allowed,
  onToggle,
}: {
  capsule: string;
  names: string[];
  allowed: string[] | undefined;
  onToggle: (name: string, on: boolean) => void;
}) {
  const zoom = useStore((s) => s.transform[2]);
  return (
    <fieldset
      className="tool-ticks"
      aria-label={`Tools ${capsule} may call`}
      style={{ transform: `scale(${1 / zoom})` }}
    >
      {names.length === 0 ? <span className="tool-desc">No tools listed yet.</span> : null}
      {names.map((n) => (
        <label key={n}>
          <input
            type="checkbox"
            checked={allowed === undefined || allowed.includes(n)}
            onChange={(e) => onToggle(n, e.target.checked)}
          />
          {n}
        </label>
      ))}
    </fieldset>
  );
}

export const ToolEdge = memo(ToolEdgeView);
