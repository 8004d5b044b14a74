import { memo, useEffect, useState } from 'react';
import type { TaskState } from '../../../src-shared/a2a';
import { taskPhase, useStudio } from '../../store';
import { ShortId } from '../../ui/ShortId';

// What a capsule is doing on its node: the current task (state, turn, the text streaming in or
// the tools it waits on) and, after a run, its last output, expandable and copyable. Its own
// selector, so a streaming task re-renders this strip and not the rest of the node.

const STATE: Partial<Record<TaskState, string>> = {
  TASK_STATE_SUBMITTED: 'queued',
  TASK_STATE_WORKING: 'working',
  TASK_STATE_INPUT_REQUIRED: 'input required',
  TASK_STATE_AUTH_REQUIRED: 'auth required',
  TASK_STATE_COMPLETED: 'completed',
  TASK_STATE_FAILED: 'failed',
  TASK_STATE_CANCELED: 'canceled',
  TASK_STATE_REJECTED: 'rejected',
};
const stateWord = (s: TaskState | undefined) =>
  s ? (STATE[s] ?? s.replace('TASK_STATE_', '').toLowerCase()) : 'working';

function NodeActivityView({ id, name }: { id: string; name: string }) {
  const activity = useStudio((s) => s.activity[id]);
  const paused = useStudio((s) => {
    const current = s.activity[id]?.current;
    return !!current && taskPhase(s, current.taskId, current.state ?? 'TASK_STATE_WORKING') === 'paused';
  });
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(null), 1500);
    return () => clearTimeout(t);
  }, [copied]);
  if (!activity?.current && !activity?.last) return null;
  const { current, last } = activity;
  const copy = () => {
    if (!last) return;
    navigator.clipboard.writeText(last.text).then(
      () => setCopied('yes'),
      () => setCopied('no'),
    );
  };
  return (
    <div className="node-activity">
      {current ? (
        <div
          className="node-current"
          role="status"
          aria-label={`Current task of ${name}`}
          data-state={current.state ?? 'TASK_STATE_WORKING'}
        >
          <div className="node-current-head">
            <span className="node-current-state">{paused ? 'paused' : stateWord(current.state)}</span>
            {current.turn > 0 ? <span className="node-current-turn">turn {current.turn}</span> : null}
            <ShortId id={current.taskId} what="Task" className="node-current-id" />
          </div>
          {current.text || current.waiting ? (
            <div className="node-current-text" title={current.text}>
              {current.text || `waiting on ${current.waiting}`}
            </div>
          ) : null}
        </div>
      ) : null}
      {last ? (
        <div className="node-last" data-state={last.state} data-open={open || undefined}>
          <div className="node-last-head">
            <span className="node-last-title" title={`Last output: ${stateWord(last.state)}`}>
              Last output
              {last.state === 'TASK_STATE_COMPLETED' ? null : (
                <span className="node-last-state"> · {stateWord(last.state)}</span>
              )}
            </span>
            <button
              type="button"
              className="node-mini-btn nodrag"
              onClick={copy}
              disabled={!last.text}
              aria-label={`Copy last output of ${name}`}
              title="Copy the whole output"
            >
              {copied === 'yes' ? 'Copied' : copied === 'no' ? 'Not copied' : 'Copy'}
            </button>
            <button
              type="button"
              className="node-mini-btn nodrag"
              onClick={() => setOpen(!open)}
              aria-expanded={open}
              aria-label={`${open ? 'Collapse' : 'Expand'} last output of ${name}`}
            >
              {open ? '▴' : '▾'}
            </button>
          </div>
          <div
            className={`node-last-text${open ? ' nowheel nodrag' : ''}`}
            aria-label={`Last output of ${name}`}
            tabIndex={open ? 0 : undefined}
          >
            {last.text || <span className="muted">(no text)</span>}
          </div>
        </div>
      ) : null}
    </div>
  );
}

export const NodeActivity = memo(NodeActivityView);
