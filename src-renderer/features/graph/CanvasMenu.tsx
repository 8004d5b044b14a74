import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';

/** One command of a context menu. */
export interface MenuItem {
  label: string;
  run(): void;
  disabled?: boolean;
  danger?: boolean;
  /** Shown on the right, e.g. "Del". */
  hint?: string;
}

interface CanvasMenuProps {
  /** Where it opens, in client (viewport) pixels. */
  x: number;
  y: number;
  label: string;
  items: MenuItem[];
  onClose(): void;
}

/**
 * A context menu (role menu): opens with focus on its first item; arrows, Home and End move, Enter
 * or Space runs, Escape or Tab or a click elsewhere closes (focus goes back where it was).
 */
export function CanvasMenu({ x, y, label, items, onClose }: CanvasMenuProps) {
  const box = useRef<HTMLDivElement>(null);
  const [at, setAt] = useState({ x, y });
  // Kept inside the window: a right-click near an edge opens the menu leftwards or upwards.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const r = el.getBoundingClientRect();
    setAt({
      x: Math.max(4, Math.min(x, window.innerWidth - r.width - 4)),
      y: Math.max(4, Math.min(y, window.innerHeight - r.height - 4)),
    });
  }, [x, y]);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    box.current?.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
    const away = (e: MouseEvent) => {
      if (!box.current?.contains(e.target as Node)) onClose();
    };
    const blur = () => onClose();
    window.addEventListener('mousedown', away, true);
    window.addEventListener('blur', blur);
    return () => {
      window.removeEventListener('mousedown', away, true);
      window.removeEventListener('blur', blur);
      if (previous?.isConnected) previous.focus?.();
    };
  }, [onClose]);

  const onKeyDown = (e: KeyboardEvent) => {
    const buttons = [...(box.current?.querySelectorAll<HTMLButtonElement>('button:not(:disabled)') ?? [])];
    const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const go = (n: number) => buttons[(n + buttons.length) % buttons.length]?.focus();
    if (e.key === 'ArrowDown') go(i + 1);
    else if (e.key === 'ArrowUp') go(i - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(buttons.length - 1);
    else if (e.key === 'Escape' || e.key === 'Tab') onClose();
    else return;
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <div
      ref={box}
      className="canvas-menu"
      role="menu"
      aria-label={label}
      style={{ left: at.x, top: at.y }}
      onKeyDown={onKeyDown}
      onContextMenu={(e) => e.preventDefault()}
    >
      {items.map((item) => (
        <button
          key={item.label}
          type="button"
          role="menuitem"
          className="canvas-menu-item"
          data-danger={item.danger || undefined}
          disabled={item.disabled}
          onClick={() => {
            onClose();
            item.run();
          }}
        >
          <span>{item.label}</span>
          {item.hint ? <kbd className="canvas-menu-hint">{item.hint}</kbd> : null}
        </button>
      ))}
    </div>
  );
}
