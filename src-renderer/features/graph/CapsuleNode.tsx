import { lazy, memo, Suspense, useContext } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { canvasPhase, exposureOf, useStudio, type CanvasPhase, type CapsuleFlowNode } from '../../store';
import { CompactContext } from './compact';
import { DriverIcon } from './DriverIcon';

// The strip of what the capsule is doing (its task, its last output) loads with the first
// activity shown; before a capsule's first task there is no strip anyway.
const NodeActivity = lazy(() => import('./NodeActivity').then((m) => ({ default: m.NodeActivity })));
// The exposed mark loads with the first capsule exposed.
const ExposedMark = lazy(() => import('./ExposedMark').then((m) => ({ default: m.ExposedMark })));
// A breakpoint's marks (the dot, Paused, Open paused task) load with the first breakpoint set.
const BreakpointMark = lazy(() => import('./BreakpointMark').then((m) => ({ default: m.BreakpointMark })));
const OpenPausedTask = lazy(() => import('./BreakpointMark').then((m) => ({ default: m.OpenPausedTask })));
// "Restart to apply" shows only after a running capsule's manifest is saved: it loads then.
const RestartToApply = lazy(() => import('../../ui/RestartToApply').then((m) => ({ default: m.RestartToApply })));

const STATE_LABEL: Record<CanvasPhase, string> = {
  stopped: 'Stopped',
  starting: 'Starting',
  idle: 'Idle',
  busy: 'Busy',
  stopping: 'Stopping',
  failed: 'Failed',
  paused: 'Paused',
  absent: 'Not in this run',
};

/** What the node's "Q 0 T 2" counts: tasks waiting their turn, and the tasks the running session holds. */
const counts = (queued: number, tasks: number) =>
  `${queued} queued, ${tasks === 1 ? '1 task' : `${tasks} tasks`} in this session (running and finished)`;

// The actions are read when clicked, not subscribed to: every subscription is one more selector
// that runs for each of 300 nodes on every store update (each drag frame).
const launch = (id: string) => useStudio.getState().launchCapsule(id);
// Stop asks first when the session has tasks in hand, as Stop session and Stop all do (`requestStop`).
const stop = (id: string) => useStudio.getState().requestStop(id);

/**
 * A capsule on the canvas. The node carries only the capsule id; the live facts come from the
 * store through one narrow selector, so one capsule's state change re-renders one node.
 */
function CapsuleNodeView({ id, selected }: NodeProps<CapsuleFlowNode>) {
  const capsule = useStudio((s) => s.capsules[id]);
  const phase = useStudio((s) => canvasPhase(s, id));
  // From the canvas: the node re-renders when the zoom crosses the threshold, not on every zoom step.
  const compact = useContext(CompactContext);
  const hasActivity = useStudio((s) => !!(s.activity[id]?.current || s.activity[id]?.last));
  const exposed = useStudio((s) => exposureOf(s, id) !== undefined);
  const marked = useStudio((s) => s.breakpointMarks.nodes[id] !== undefined);
  if (!capsule) return null;
  const running = capsule.state !== 'stopped' && capsule.state !== 'failed';
  const role = capsule.role ?? 'capsule';
  if (compact) {
    return (
      <div
        className="capsule-node capsule-node-compact"
        data-role={role}
        data-state={capsule.state}
        data-selected={selected || undefined}
        data-invalid={capsule.issues.length > 0 || undefined}
        role="group"
        aria-label={capsule.name}
      >
        {role === 'orchestrator' ? null : <Handle type="target" position={Position.Left} isConnectable={false} />}
        <span className="capsule-node-state" data-state={phase} title={phase ? STATE_LABEL[phase] : undefined}>
          <span className="state-dot" aria-hidden="true" />
        </span>
        <span className="capsule-node-name">{capsule.name}</span>
        {exposed ? (
          <Suspense fallback={null}>
            <ExposedMark id={id} name={capsule.name} compact />
          </Suspense>
        ) : null}
        {marked ? (
          <Suspense fallback={null}>
            <BreakpointMark id={id} name={capsule.name} compact />
          </Suspense>
        ) : null}
        {role === 'orchestrator' ? <Handle type="source" position={Position.Right} isConnectable={false} /> : null}
        <Handle type="source" id="tools" position={Position.Bottom} isConnectable={false} />
      </div>
    );
  }
  // The scheme is always http on a door; the host:port is what tells doors apart.
  const address =
    capsule.url?.replace(/^https?:\/\//, '').replace(/\/$/, '') ??
    (capsule.port ? `port ${capsule.port}` : 'port: auto');
  return (
    <div
      className="capsule-node"
      data-role={role}
      data-state={capsule.state}
      data-selected={selected || undefined}
      data-invalid={capsule.issues.length > 0 || undefined}
      role="group"
      aria-label={capsule.name}
      data-testid="capsule-node"
    >
      {marked ? (
        <Suspense fallback={null}>
          <BreakpointMark id={id} name={capsule.name} />
        </Suspense>
      ) : null}
      {role === 'orchestrator' ? null : (
        <Handle type="target" position={Position.Left} aria-label={`Connect to ${capsule.name}`} />
      )}
      <header className="capsule-node-head">
        <span className="capsule-node-role">
          <DriverIcon driver={capsule.driver} />
          {role}
          {exposed ? (
            <Suspense fallback={null}>
              <ExposedMark id={id} name={capsule.name} />
            </Suspense>
          ) : null}
        </span>
        <span className="capsule-node-state" data-state={phase}>
          <span className="state-dot" aria-hidden="true" />
          {phase ? STATE_LABEL[phase] : null}
        </span>
      </header>
      <div className="capsule-node-name" title={capsule.name}>
        {capsule.name}
      </div>
      <div className="capsule-node-model">
        {capsule.rehearsal ? (
          <span className="rehearsal-badge" title="Scripted offline driver: no model is called">
            Rehearsal
          </span>
        ) : (
          <span className="driver-badge">{capsule.driver ?? 'no driver'}</span>
        )}
        <span className="capsule-node-model-name" title={capsule.model ?? ''}>
          {capsule.model ?? '—'}
        </span>
      </div>
      <div className="capsule-node-facts">
        <span className="mono" title={capsule.url ?? address}>
          {address}
        </span>
        <span title={counts(capsule.queued, capsule.tasks)}>
          <span aria-hidden="true">
            <span className="fact">Q {capsule.queued}</span>
            <span className="fact">T {capsule.tasks}</span>
          </span>
          <span className="visually-hidden">{counts(capsule.queued, capsule.tasks)}</span>
        </span>
      </div>
      {/* A running node whose file no longer loads shows one mark (fix line N to restart), not the list too. */}
      {capsule.issues.length > 0 && !(running && capsule.restartToApply) ? (
        <ul className="capsule-node-issues" aria-label={`Manifest problems in ${capsule.name}`}>
          {capsule.issues.slice(0, 3).map((issue, i) => (
            <li key={i} title={issue.message}>
              {issue.line ? `line ${issue.line}: ` : ''}
              {issue.path ? `${issue.path}: ` : ''}
              {issue.message}
            </li>
          ))}
          {capsule.issues.length > 3 ? <li>…and {capsule.issues.length - 3} more</li> : null}
        </ul>
      ) : null}
      {capsule.error ? (
        <div className="capsule-node-error" title={capsule.error}>
          {capsule.error}
        </div>
      ) : null}
      {running && capsule.restartToApply ? (
        <Suspense fallback={null}>
          <RestartToApply id={id} compact />
        </Suspense>
      ) : null}
      {hasActivity ? (
        <Suspense fallback={null}>
          <NodeActivity id={id} name={capsule.name} />
        </Suspense>
      ) : null}
      <footer className="capsule-node-actions nodrag">
        {running && marked ? (
          <Suspense fallback={null}>
            <OpenPausedTask id={id} name={capsule.name} />
          </Suspense>
        ) : null}
        {running ? (
          <button
            type="button"
            className="btn btn-small"
            onClick={() => void stop(id)}
            aria-label={`Stop ${capsule.name}`}
          >
            Stop
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-small"
            onClick={() => void launch(id)}
            aria-label={`Launch ${capsule.name}`}
            disabled={capsule.issues.length > 0}
          >
            Launch
          </button>
        )}
      </footer>
      {role === 'orchestrator' ? (
        <Handle type="source" position={Position.Right} aria-label={`Connect ${capsule.name} to a worker`} />
      ) : null}
      <Handle
        type="source"
        id="tools"
        position={Position.Bottom}
        className="tools-handle"
        aria-label={`Give ${capsule.name} a tool server`}
      />
    </div>
  );
}

export const CapsuleNode = memo(CapsuleNodeView);
