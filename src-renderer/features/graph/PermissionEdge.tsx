import { lazy, memo, Suspense, useContext } from 'react';
import { BaseEdge, EdgeLabelRenderer, getBezierPath, type EdgeProps } from '@xyflow/react';
import { edgeInFlight, edgeKey, useStudio, type FlowEdge } from '../../store';
import { CompactContext } from './compact';
import { PauseIcon } from '../../ui/PauseIcon';
import './flow.css';

// The tasks that crossed an edge (and the trace reading behind them) load when an edge is first selected.
const EdgeTasks = lazy(() => import('./EdgeTasks').then((m) => ({ default: m.EdgeTasks })));

/**
 * An edge orchestrator -> target: an allow entry. Its address shows when selected or external.
 * While delegations cross it, dashes run along it towards the target (a CSS animation of
 * stroke-dashoffset: no script per frame) with the count in flight; the latest run's failed and
 * canceled hops are marked until the next run. Selected, it lists the tasks that crossed it.
 *
 * Zoomed out (compact nodes) the dashes stand still and only the count says work is flowing:
 * every moving edge repaints on every frame, and with the whole 300-node formation in view, 270
 * of them in flight took the idle frame p95 from 83 to 183 ms and panning from 17 to 400 ms
 * (e2e/graph-perf.spec.ts, software raster). A moving strip composited per edge was worse (383 ms
 * idle): 270 layers. Zoomed in, few edges are drawn (the canvas culls what is out of view).
 */
function PermissionEdgeView(props: EdgeProps<FlowEdge>) {
  // One narrow selector: only this edge's flow, so one edge's traffic re-renders one edge.
  const flow = useStudio((s) => s.edgeFlow[props.id]);
  const breakpoint = useStudio((s) => s.breakpointMarks.edges[edgeKey(props.source, props.target)]);
  const inFlight = useStudio((s) => edgeInFlight(s, props.id, edgeKey(props.source, props.target)));
  const compact = useContext(CompactContext);
  const [path, labelX, labelY] = getBezierPath(props);
  const external = props.data?.targetKind === 'external';
  const failed = flow?.failed ?? 0;
  const canceled = flow?.canceled ?? 0;
  const marked = failed + canceled > 0;
  const showAddress = props.selected || external;
  const paused = breakpoint?.paused ?? 0;
  const showLabel = showAddress || inFlight > 0 || marked || !!breakpoint;
  const mark = failed ? 'failed' : canceled ? 'canceled' : undefined;
  return (
    <>
      <BaseEdge
        id={props.id}
        path={path}
        markerEnd={props.markerEnd}
        className={mark ? `edge-marked edge-${mark}` : undefined}
        style={external ? { strokeDasharray: '5 4' } : undefined}
      />
      {inFlight > 0 ? (
        <path
          d={path}
          className={compact ? 'edge-flow edge-flow-still' : 'edge-flow'}
          data-testid="edge-flow"
          aria-hidden="true"
        />
      ) : null}
      {showLabel ? (
        <EdgeLabelRenderer>
          <div
            className="edge-labels nodrag nopan"
            data-edge={props.id}
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
          >
            {showAddress && props.data ? <div className="edge-label">{props.data.address}</div> : null}
            {breakpoint ? (
              <div className="edge-flow-badges">
                {breakpoint.set ? (
                  <span
                    className="edge-badge edge-badge-breakpoint"
                    role="img"
                    aria-label="Breakpoint on this connection"
                    title="Delegations across this connection pause before they are sent"
                  >
                    ●
                  </span>
                ) : null}
                {paused > 0 ? (
                  <span
                    className="edge-badge edge-badge-paused"
                    role="status"
                    aria-label={`${paused} paused on this connection`}
                    title="A delegation waits here: open its task in the orchestrator's Tasks tab"
                  >
                    <PauseIcon /> {paused}
                  </span>
                ) : null}
              </div>
            ) : null}
            {inFlight > 0 || marked ? (
              <div className="edge-flow-badges">
                {inFlight > 0 ? (
                  <span
                    className="edge-badge edge-badge-flow"
                    role="status"
                    aria-label={`${inFlight} in flight`}
                    title={`${inFlight} delegation${inFlight === 1 ? '' : 's'} on the way`}
                  >
                    {inFlight} ›
                  </span>
                ) : null}
                {failed ? (
                  <span
                    className="edge-badge edge-badge-failed"
                    aria-label={`${failed} failed`}
                    title="Hops of the latest run that failed (cleared by the next run)"
                  >
                    ✕ {failed}
                  </span>
                ) : null}
                {canceled ? (
                  <span
                    className="edge-badge edge-badge-canceled"
                    aria-label={`${canceled} canceled`}
                    title="Hops of the latest run that were canceled (cleared by the next run)"
                  >
                    ⊘ {canceled}
                  </span>
                ) : null}
              </div>
            ) : null}
            {props.selected ? (
              <Suspense fallback={null}>
                <EdgeTasks edgeId={props.id} source={props.source} target={props.target} />
              </Suspense>
            ) : null}
          </div>
        </EdgeLabelRenderer>
      ) : null}
    </>
  );
}

export const PermissionEdge = memo(PermissionEdgeView);
