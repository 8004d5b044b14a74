import { memo } from 'react';
import { useStudio } from '../../store';
import { PauseIcon } from '../../ui/PauseIcon';

// A node's breakpoint: a red dot while one is set, drawn over the card's top edge. While a task of
// the capsule waits at one, the full card's state reads Paused and its actions offer "Open paused
// task" (OpenPausedTask, beside Stop); the compact card's state is a bare dot, so there a badge on
// the edge says Paused and opens the task. Either opens it in the inspector, where it is resumed.

const openPaused = (capsuleId: string) => {
  const s = useStudio.getState();
  const p = s.breakpoints.paused.find((x) => x.capsuleId === capsuleId);
  if (p) s.openTask(capsuleId, p.taskId);
};

function BreakpointMarkView({ id, name, compact = false }: { id: string; name: string; compact?: boolean }) {
  // One lookup in marks computed once per change: stable identity, no re-render of other nodes.
  const mark = useStudio((s) => s.breakpointMarks.nodes[id]);
  if (!mark) return null;
  // Drawn over the node's top edge: the card's own layout (and its state label) stays as it is.
  return (
    <span className="breakpoint-marks">
      {mark.set ? (
        <span
          className="breakpoint-dot"
          role="img"
          aria-label={`Breakpoint before each turn of ${name}`}
          title="Pauses before each model turn"
        />
      ) : null}
      {compact && mark.paused > 0 ? (
        <button
          type="button"
          className="paused-badge nodrag"
          onClick={() => openPaused(id)}
          aria-label={`${mark.paused} paused in ${name}: open`}
          title="A task waits at a breakpoint: open it to edit its message, step, continue or cancel"
        >
          <PauseIcon /> Paused
          {mark.paused > 1 ? ` ×${mark.paused}` : ''}
        </button>
      ) : null}
    </span>
  );
}

export const BreakpointMark = memo(BreakpointMarkView);

/** The full card's action while a task of the capsule waits at a breakpoint: opens it in the inspector. */
function OpenPausedTaskView({ id, name }: { id: string; name: string }) {
  const paused = useStudio((s) => s.breakpointMarks.nodes[id]?.paused ?? 0);
  if (paused === 0) return null;
  return (
    <button
      type="button"
      className="btn btn-small btn-open-paused"
      onClick={() => openPaused(id)}
      aria-label={`Open the paused task of ${name}`}
      title="A task waits at a breakpoint: open it to edit its message, step, continue or cancel"
    >
      <PauseIcon /> Open paused task{paused > 1 ? ` (1 of ${paused})` : ''}
    </button>
  );
}

export const OpenPausedTask = memo(OpenPausedTaskView);
