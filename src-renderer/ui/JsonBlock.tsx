import { useMemo } from 'react';
import { CopyButton } from './CopyButton';
import { clipText, formatJson, JSON_SHOWN_CHARS } from './json';

/** A value as indented JSON with a Copy button; past JSON_SHOWN_CHARS the view is cut, the copy is whole. */
export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  const text = useMemo(() => formatJson(value), [value]);
  const { shown, cut } = clipText(text);
  return (
    <div className="json-block">
      <CopyButton text={text} label={`Copy ${label}`} />
      <pre className="mono" aria-label={label}>
        {shown}
      </pre>
      {cut ? (
        <div className="muted json-cut">
          Cut at {JSON_SHOWN_CHARS.toLocaleString('en-US')} characters; Copy takes all{' '}
          {text.length.toLocaleString('en-US')}.
        </div>
      ) : null}
    </div>
  );
}
