import { useRef } from 'react';

const STEP = 16;
const BIG_STEP = 64;

interface ResizeHandleProps {
  /** What it resizes, for screen readers ("Resize the console"). */
  label: string;
  /** `vertical`: a left edge dragged sideways (the side panel); `horizontal`: a top edge dragged up and down (the console). */
  orientation: 'vertical' | 'horizontal';
  className: string;
  size: number;
  min: number;
  max: number;
  /** Double-click puts it back to this. */
  initial: number;
  onSize(size: number, persist?: boolean): void;
}

/**
 * The edge of a panel that sits at the right or the bottom of the window: dragging it away from
 * the panel (left, or up) makes the panel bigger. Focus it and use the arrow keys (Shift: bigger
 * steps), Home (largest) and End (smallest); double-click for the default size.
 */
export function ResizeHandle({ label, orientation, className, size, min, max, initial, onSize }: ResizeHandleProps) {
  const drag = useRef<{ start: number; startSize: number } | null>(null);
  const along = (e: { clientX: number; clientY: number }) => (orientation === 'vertical' ? e.clientX : e.clientY);
  const [grow, shrink] = orientation === 'vertical' ? ['ArrowLeft', 'ArrowRight'] : ['ArrowUp', 'ArrowDown'];
  return (
    <div
      className={`resize-handle ${className}`}
      role="separator"
      aria-orientation={orientation}
      aria-label={label}
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuenow={size}
      tabIndex={0}
      onPointerDown={(e) => {
        e.preventDefault();
        e.currentTarget.setPointerCapture(e.pointerId);
        drag.current = { start: along(e), startSize: size };
      }}
      onPointerMove={(e) => {
        if (!drag.current) return;
        onSize(drag.current.startSize + drag.current.start - along(e), false);
      }}
      onPointerUp={(e) => {
        if (!drag.current) return;
        onSize(drag.current.startSize + drag.current.start - along(e));
        drag.current = null;
      }}
      onPointerCancel={() => (drag.current = null)}
      onDoubleClick={() => onSize(initial)}
      onKeyDown={(e) => {
        const step = e.shiftKey ? BIG_STEP : STEP;
        const next = { [grow]: size + step, [shrink]: size - step, Home: max, End: min }[e.key];
        if (next === undefined) return;
        e.preventDefault();
        onSize(next);
      }}
    />
  );
}
