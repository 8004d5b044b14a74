import { Panel } from '@xyflow/react';
import { useStudio } from '../../store';
import { formatTime } from '../../ui/time';

// While a replay shows, the canvas says so on itself (not only in the bar above it): what it draws,
// the node states included, is the recording at the replay's cursor, not what runs now. Until Exit.

export function ReplayMark() {
  const run = useStudio((s) => s.replay?.run);
  if (!run) return null;
  const when = formatTime(run.startedAt);
  return (
    <Panel position="top-left" className="replay-mark" role="status" aria-label="Canvas shows a replay">
      <span className="replay-mark-badge">Replay</span> recorded run of {run.entry} at {when}, not live
    </Panel>
  );
}
