import type { DragEvent } from 'react';
import { PALETTE_ITEMS, PALETTE_MIME, type PaletteKind } from './palette';

interface PaletteProps {
  /** Adds the item at the centre of the view (the keyboard path; the mouse path is drag and drop). */
  onPick(kind: PaletteKind): void;
}

/** Items the user drags onto the canvas (or activates with Enter to add at the centre). */
export function Palette({ onPick }: PaletteProps) {
  const onDragStart = (e: DragEvent<HTMLButtonElement>, kind: PaletteKind) => {
    e.dataTransfer.setData(PALETTE_MIME, kind);
    e.dataTransfer.effectAllowed = 'copy';
  };
  return (
    <nav className="palette" aria-label="Palette">
      <h2>Add to formation</h2>
      {PALETTE_ITEMS.map((item) => (
        <button
          key={item.kind}
          type="button"
          className="palette-item"
          data-kind={item.kind}
          draggable
          onDragStart={(e) => onDragStart(e, item.kind)}
          onClick={() => onPick(item.kind)}
          aria-label={item.title}
          aria-description={`${item.hint}. Drag onto the canvas, or press Enter to add it in the middle.`}
        >
          <span className="palette-item-title">{item.title}</span>
          <span className="palette-item-hint">{item.hint}</span>
        </button>
      ))}
      <p className="palette-help">
        Drag from an orchestrator&apos;s right handle to a worker to let it delegate, and from any capsule&apos;s bottom
        handle to a tool server to let it use its tools. Select an edge or node and press Delete to remove it.
      </p>
    </nav>
  );
}
