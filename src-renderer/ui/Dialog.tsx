import { useEffect, useId, useRef, type ReactNode } from 'react';

interface DialogProps {
  title: string;
  onClose(): void;
  children: ReactNode;
  /** A ✕ in the corner, for dialogs with no Cancel or Done of their own (Escape alone is not visible). */
  closeButton?: boolean;
}

/** A modal dialog: labelled by its title, closes on Escape, keeps focus inside while open. */
export function Dialog({ title, onClose, children, closeButton = false }: DialogProps) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  // Callers often pass a new `onClose` on every render (an inline arrow). The focus effect below must
  // run once per opening: re-running it would hand focus back to the page and then to the first field
  // after every key typed in any other field. So the effect reads the latest `onClose` from a ref.
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        closeRef.current();
      }
    };
    window.addEventListener('keydown', onKey, true);
    if (!box.current?.contains(document.activeElement))
      box.current?.querySelector<HTMLElement>('input, button')?.focus();
    return () => {
      window.removeEventListener('keydown', onKey, true);
      previous?.focus?.();
    };
  }, []);
  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={box} className="dialog" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 id={titleId}>{title}</h2>
        {children}
        {closeButton ? (
          <button
            type="button"
            className="btn btn-small dialog-close"
            aria-label={`Close ${title.toLowerCase()}`}
            title="Close (Esc)"
            onClick={() => closeRef.current()}
          >
            ✕
          </button>
        ) : null}
      </div>
    </div>
  );
}

interface FormActionsProps {
  /** Closes the dialog without doing anything. */
  onCancel(): void;
  /** The submit button's words ("Add agent", "Attaching…"). */
  submit: string;
  disabled?: boolean;
  cancel?: string;
}

/** A form dialog's footer: the button that leaves it, then the one that submits the form. */
export function FormActions({ onCancel, submit, disabled, cancel = 'Cancel' }: FormActionsProps) {
  return (
    <div className="dialog-actions">
      <button type="button" className="btn" onClick={onCancel}>
        {cancel}
      </button>
      <button type="submit" className="btn btn-primary" disabled={disabled}>
        {submit}
      </button>
    </div>
  );
}
