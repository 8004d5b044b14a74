import { useEffect, useRef, useState, type ReactNode } from 'react';
import { clampSide, SIDE_DEFAULT, SIDE_MIN, sideMax, useSideWidth } from './useSideWidth';

const STEP = 16;
const BIG_STEP = 64;

/**
 * The side panel's frame: a resize handle on its left edge (drag it, or focus it and use the
 * arrow keys, Home and End), and a full-width mode that lays the panel over the canvas.
 */
export function SideFrame({ label, full, onFull, children }: { label: string; full: boolean; onFull: (full: boolean) => void; children: ReactNode }) {
  const [width, setWidth] = useSideWidth();
  const [winWidth, setWinWidth] = useState(() => window.innerWidth);
  const drag = useRef<{ startX: number; startWidth: number } | null>(null);
  useEffect(() => {
    const onResize = () => setWinWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  useEffect(() => {
    if (!full) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && !e.defaultPrevented && onFull(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [full, onFull]);
  const shown = clampSide(width, winWidth);
  const max = sideMax(winWidth);

  return (
    <aside className="studio-side" aria-label={label} data-full={full || undefined} style={full ? undefined : { width: shown }}>
      {full ? null : (
        <div
          className="side-resize"
          role="separator"
          aria-orientation="vertical"
          aria-label="Resize the details panel"
          aria-valuemin={SIDE_MIN}
          aria-valuemax={max}
          aria-valuenow={shown}
          tabIndex={0}
          onPointerDown={(e) => {
            e.preventDefault();
            e.currentTarget.setPointerCapture(e.pointerId);
            drag.current = { startX: e.clientX, startWidth: shown };
          }}
          onPointerMove={(e) => {
            if (!drag.current) return;
            // The panel sits on the right: dragging its left edge leftwards widens it.
            setWidth(drag.current.startWidth + drag.current.startX - e.clientX, false);
          }}
          onPointerUp={(e) => {
            if (!drag.current) return;
            setWidth(drag.current.startWidth + drag.current.startX - e.clientX);
            drag.current = null;
          }}
          onPointerCancel={() => (drag.current = null)}
          onDoubleClick={() => setWidth(SIDE_DEFAULT)}
          onKeyDown={(e) => {
            const step = e.shiftKey ? BIG_STEP : STEP;
            const next = { ArrowLeft: shown + step, ArrowRight: shown - step, Home: max, End: SIDE_MIN }[e.key];
            if (next === undefined) return;
            e.preventDefault();
            setWidth(next);
          }}
        />
      )}
      {children}
    </aside>
  );
}

/** The button that lays the panel over the whole window's width, or gives the canvas back. */
export function FullWidthButton({ full, onFull }: { full: boolean; onFull: (full: boolean) => void }) {
  return (
    <button type="button" className="btn btn-small" aria-pressed={full} aria-label={full ? 'Restore the details panel width' : 'Details panel full width'} title={full ? 'Back to the side (Esc)' : 'Full width'} onClick={() => onFull(!full)}>
      {full ? '⇥' : '⇤'}
    </button>
  );
}
