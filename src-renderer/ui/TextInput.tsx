import { useId, type ReactNode } from 'react';

interface TextInputProps {
  label: string;
  value: string;
  onChange(value: string): void;
  placeholder?: string;
  /** A line under the field (what the value means). */
  hint?: ReactNode;
}

/** A labelled one-line text field in the Studio's monospace style (names, URLs, paths: no spellcheck). */
export function TextInput({ label, value, onChange, placeholder, hint }: TextInputProps) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input mono"
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
        spellCheck={false}
      />
      {hint ? <span className="field-hint">{hint}</span> : null}
    </div>
  );
}
