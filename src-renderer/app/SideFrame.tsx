import type { ReactNode } from 'react';
import { ResizeHandle } from '../ui/ResizeHandle';
import { usePanelFull } from '../ui/usePanelFull';
import { useWindowSize } from '../ui/usePanelSize';
import { clampSide, SIDE_DEFAULT, SIDE_MIN, sideMax, useSideWidth } from './useSideWidth';

/**
 * The side panel's frame: a resize handle on its left edge (drag it, or focus it and use the
 * arrow keys, Home and End), and a full-width mode that lays the panel over the canvas.
 */
export function SideFrame({
  label,
  full,
  onFull,
  children,
}: {
  label: string;
  full: boolean;
  onFull: (full: boolean) => void;
  children: ReactNode;
}) {
  const [width, setWidth] = useSideWidth();
  const winWidth = useWindowSize().width;
  usePanelFull(full, onFull);
  const shown = clampSide(width, winWidth);
  const max = sideMax(winWidth);

  return (
    <aside
      className="studio-side"
      aria-label={label}
      data-full={full || undefined}
      style={full ? undefined : { width: shown }}
    >
      {full ? null : (
        <ResizeHandle
          className="side-resize"
          orientation="vertical"
          label="Resize the details panel"
          size={shown}
          min={SIDE_MIN}
          max={max}
          initial={SIDE_DEFAULT}
          onSize={setWidth}
        />
      )}
      {children}
    </aside>
  );
}

/** The button that lays the panel over the whole window's width, or gives the canvas back. */
export function FullWidthButton({ full, onFull }: { full: boolean; onFull: (full: boolean) => void }) {
  return (
    <button
      type="button"
      className="btn btn-small"
      aria-pressed={full}
      aria-label={full ? 'Restore the details panel width' : 'Details panel full width'}
      title={full ? 'Back to the side (Esc)' : 'Full width'}
      onClick={() => onFull(!full)}
    >
      {full ? '⇥' : '⇤'}
    </button>
  );
}
