import { useEffect, useState } from 'react';

/** Puts text on the clipboard; where the Clipboard API is refused, through a hidden text area. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    if (!ok) throw new Error('the clipboard refused the copy');
  }
}

/** A small Copy button that says, for a moment, whether the copy went through. */
export function CopyButton({ text, label }: { text: string | (() => string); label: string }) {
  const [outcome, setOutcome] = useState<'copied' | 'failed' | null>(null);
  useEffect(() => {
    if (!outcome) return;
    const t = setTimeout(() => setOutcome(null), 1500);
    return () => clearTimeout(t);
  }, [outcome]);
  return (
    <button
      type="button"
      className="btn btn-small copy-button"
      aria-label={label}
      onClick={async (e) => {
        e.stopPropagation();
        try {
          await copyText(typeof text === 'function' ? text() : text);
          setOutcome('copied');
        } catch {
          setOutcome('failed');
        }
      }}
    >
      <span aria-live="polite">{outcome === 'copied' ? 'Copied' : outcome === 'failed' ? 'Copy failed' : 'Copy'}</span>
    </button>
  );
}
