import { useEffect, useId, useState } from 'react';
import { issuesAt, pathKey, useForm } from './FormContext';
import { Problems } from './fields';
import { listAt, setAt, type Path } from './formDoc';

const split = (text: string, sep: string) =>
  text
    .split(sep)
    .map((t) => t.trim())
    .filter(Boolean);

/** A short list of strings typed as one line, split at `separator` (tags: commas; examples: semicolons). */
export function TagsField({
  label,
  name,
  path,
  separator = ',',
}: {
  label: string;
  name: string;
  path: Path;
  separator?: string;
}) {
  const { data, write, issues } = useForm();
  const id = useId();
  const written = listAt(data, path).map(String).join(`${separator} `);
  const [text, setText] = useState(written);
  useEffect(() => {
    if (split(text, separator).join('\u0000') !== split(written, separator).join('\u0000')) setText(written);
    // Only a change of the draft resets the text; typing (a trailing separator) must not.
  }, [written]);
  const problems = issuesAt(issues, path);
  return (
    <div className="field field-wide">
      <span className="field-label" aria-hidden="true">
        {label}
      </span>
      <input
        id={id}
        className="input"
        aria-label={name}
        value={text}
        placeholder={separator === ',' ? 'comma-separated' : 'separated by ;'}
        aria-invalid={problems.length > 0 || undefined}
        aria-describedby={problems.length ? `${id}-error` : undefined}
        onChange={(e) => {
          setText(e.target.value);
          const items = split(e.target.value, separator);
          write(pathKey(path), setAt(path, items.length ? items : ''));
        }}
      />
      <Problems id={`${id}-error`} problems={problems} />
    </div>
  );
}
