import { useMemo, useRef, type UIEvent } from 'react';
import type { IssueView } from '../../../src-shared/contract';

interface YamlEditorProps {
  value: string;
  issues: IssueView[];
  onChange(text: string): void;
  onSave(): void;
}

/** The raw manifest: a textarea with a line-number gutter where lines with problems show red. */
export function YamlEditor({ value, issues, onChange, onSave }: YamlEditorProps) {
  const gutter = useRef<HTMLDivElement>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const lineCount = useMemo(() => value.split('\n').length, [value]);
  const badLines = useMemo(() => new Set(issues.map((i) => i.line).filter((l): l is number => !!l)), [issues]);
  const onScroll = (e: UIEvent<HTMLTextAreaElement>) => {
    if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
  };
  const numbers = useMemo(() => {
    const out = [];
    for (let n = 1; n <= lineCount; n++) {
      out.push(
        <div key={n} className="yaml-line-number" data-bad={badLines.has(n) || undefined}>
          {n}
        </div>,
      );
    }
    return out;
  }, [lineCount, badLines]);

  return (
    <div className="yaml-editor">
      <div ref={gutter} className="yaml-gutter" aria-hidden="true">
        {numbers}
      </div>
      <textarea
        ref={area}
        className="yaml-text"
        aria-label="Manifest YAML"
        spellCheck={false}
        wrap="off"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onScroll={onScroll}
        onKeyDown={(e) => {
          if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
            e.preventDefault();
            onSave();
          } else if (e.key === 'Tab' && !e.shiftKey) {
            // Tab indents (YAML needs spaces); Shift+Tab still leaves the field.
            e.preventDefault();
            const t = e.currentTarget;
            const { selectionStart: a, selectionEnd: b } = t;
            onChange(t.value.slice(0, a) + '  ' + t.value.slice(b));
            requestAnimationFrame(() => t.setSelectionRange(a + 2, a + 2));
          }
        }}
      />
    </div>
  );
}

/** Moves the caret of the YAML textarea to the start of a line and scrolls it into view. */
export function revealLine(line: number): void {
  const t = document.querySelector<HTMLTextAreaElement>('textarea.yaml-text');
  if (!t) return;
  const lines = t.value.split('\n');
  const offset = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  t.focus();
  t.setSelectionRange(offset, offset + (lines[line - 1]?.length ?? 0));
  const lineHeight = parseFloat(getComputedStyle(t).lineHeight) || 18;
  t.scrollTop = Math.max(0, (line - 3) * lineHeight);
}
