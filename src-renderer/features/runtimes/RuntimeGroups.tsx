import { useMemo } from 'react';
import { ViewportPortal } from '@xyflow/react';
import { useStudio } from '../../store';
import { runtimeStateText } from './runtimeState';
import './runtimes.css';

// Each attached runtime's capsules stand in a frame on the canvas, labelled with the runtime and
// its link state, so capsules of different hosts are never mistaken for one another. The frame is
// drawn in flow coordinates around the nodes and lets every pointer event through to them.

/** Room a node card takes (capsule cards are ~232 x 180). */
const CARD = { w: 240, h: 190 };
const PAD = { x: 24, top: 48, bottom: 24 };
/** Wide enough for the label (runtime, state, host). */
const MIN_WIDTH = 380;

export function RuntimeGroups() {
  const runtimes = useStudio((s) => s.runtimes);
  const capsules = useStudio((s) => s.capsules);
  const capsuleIds = useStudio((s) => s.capsuleIds);
  const remotes = useStudio((s) => s.remotes);
  const remoteIds = useStudio((s) => s.remoteIds);
  const boxes = useMemo(() => {
    const out = new Map<string, { x0: number; y0: number; x1: number; y1: number; n: number }>();
    const add = (rt: string | undefined, p: { x: number; y: number }) => {
      if (!rt) return;
      const b = out.get(rt) ?? { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity, n: 0 };
      out.set(rt, { x0: Math.min(b.x0, p.x), y0: Math.min(b.y0, p.y), x1: Math.max(b.x1, p.x + CARD.w), y1: Math.max(b.y1, p.y + CARD.h), n: b.n + 1 });
    };
    for (const id of capsuleIds) add(capsules[id]?.runtime, capsules[id]?.position ?? { x: 0, y: 0 });
    for (const id of remoteIds) add(remotes[id]?.runtime, remotes[id]?.position ?? { x: 0, y: 0 });
    return out;
  }, [capsules, capsuleIds, remotes, remoteIds]);
  if (!runtimes.length) return null;
  return (
    <ViewportPortal>
      {runtimes.map((r) => {
        const b = boxes.get(r.id);
        if (!b) return null;
        return (
          <div
            key={r.id}
            className="runtime-group"
            data-state={r.state}
            role="group"
            aria-label={`Runtime ${r.label}`}
            data-testid={`runtime-group-${r.id}`}
            style={{ transform: `translate(${b.x0 - PAD.x}px, ${b.y0 - PAD.top}px)`, width: Math.max(MIN_WIDTH, b.x1 - b.x0 + 2 * PAD.x), height: b.y1 - b.y0 + PAD.top + PAD.bottom }}
          >
            <div className="runtime-group-label" title={r.url}>
              <span className="runtime-dot" aria-hidden="true" />
              <strong>{r.label}</strong>
              <span className="runtime-group-state">{runtimeStateText(r)}</span>
              <span className="runtime-group-count">
                {b.n} {b.n === 1 ? 'node' : 'nodes'} · {new URL(r.url).host}
              </span>
            </div>
          </div>
        );
      })}
    </ViewportPortal>
  );
}
