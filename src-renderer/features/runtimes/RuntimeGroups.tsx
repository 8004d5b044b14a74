import { useEffect, useMemo } from 'react';
import { ViewportPortal } from '@xyflow/react';
import { runtimeFrames, useStudio } from '../../store';
import { runtimeStateText } from './runtimeState';

// Each attached runtime's capsules stand in a frame on the canvas, labelled with the runtime and
// its link state, so capsules of different hosts are never mistaken for one another. The frame is
// drawn in flow coordinates around the nodes and lets every pointer event through to them.

export function RuntimeGroups() {
  const runtimes = useStudio((s) => s.runtimes);
  const capsules = useStudio((s) => s.capsules);
  const capsuleIds = useStudio((s) => s.capsuleIds);
  const remotes = useStudio((s) => s.remotes);
  const remoteIds = useStudio((s) => s.remoteIds);
  // Each runtime's gateway is read when its link comes up, so the canvas marks its exposed capsules too.
  const connected = useStudio((s) =>
    s.runtimes
      .filter((r) => r.state === 'connected')
      .map((r) => r.id)
      .join(' '),
  );
  useEffect(() => {
    for (const id of connected.split(' ')) if (id) void useStudio.getState().loadExposures(id);
  }, [connected]);
  const frames = useMemo(
    () => new Map(runtimeFrames({ capsules, capsuleIds, remotes, remoteIds }).map((f) => [f.runtime, f])),
    [capsules, capsuleIds, remotes, remoteIds],
  );
  if (!runtimes.length) return null;
  return (
    <ViewportPortal>
      {runtimes.map((r) => {
        const f = frames.get(r.id);
        if (!f) return null;
        return (
          <div
            key={r.id}
            className="runtime-group"
            data-state={r.state}
            role="group"
            aria-label={`Runtime ${r.label}`}
            data-testid={`runtime-group-${r.id}`}
            style={{ transform: `translate(${f.x0}px, ${f.y0}px)`, width: f.x1 - f.x0, height: f.y1 - f.y0 }}
          >
            <div className="runtime-group-label" title={r.url}>
              <span className="runtime-dot" aria-hidden="true" />
              <strong>{r.label}</strong>
              <span className="runtime-group-state">{runtimeStateText(r)}</span>
              <span className="runtime-group-count">
                {f.nodes} {f.nodes === 1 ? 'node' : 'nodes'} · {new URL(r.url).host}
              </span>
            </div>
          </div>
        );
      })}
    </ViewportPortal>
  );
}
