import { useState } from 'react';

/** A read-only value with a Copy button (URLs, a token or link shown once). */
export function CopyField({ label, value, multiline }: { label: string; value: string; multiline?: boolean }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="expose-field">
      <span className="expose-label">{label}</span>
      {multiline ? (
        <pre className="expose-value mono">{value}</pre>
      ) : (
        <input
          className="expose-value mono"
          readOnly
          value={value}
          aria-label={label}
          onFocus={(e) => e.target.select()}
        />
      )}
      <button
        type="button"
        className="btn btn-small"
        aria-label={`Copy ${label.toLowerCase()}`}
        onClick={async () => {
          await navigator.clipboard?.writeText(value).catch(() => undefined);
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}
