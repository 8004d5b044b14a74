import { memo } from 'react';
import { useStudio } from '../../store';
import { PauseIcon } from '../../ui/PauseIcon';

// A node's breakpoint: a red dot while one is set, and a badge while a task of the capsule waits
// at one. The badge opens that task in the inspector, where it is resumed. The full card's state
// already reads Paused, so there the badge names its action; the compact card's state is a bare
// dot, so there the badge says Paused.

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
      {mark.paused > 0 ? (
        <button
          type="button"
          className="paused-badge nodrag"
          onClick={() => openPaused(id)}
          aria-label={`${mark.paused} paused in ${name}: open`}
          title="A task waits at a breakpoint: open it to edit its message, step, continue or cancel"
        >
          <PauseIcon /> {compact ? 'Paused' : 'Open'}
          {mark.paused > 1 ? ` ×${mark.paused}` : ''}
        </button>
      ) : null}
    </span>
  );
}

export const BreakpointMark = memo(BreakpointMarkView);
