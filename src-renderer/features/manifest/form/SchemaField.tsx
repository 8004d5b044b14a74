import { useEffect, useId, useState } from 'react';
import { issuesAt, useForm } from './FormContext';
import { Problems } from './fields';
import { setAt, valueAt, type Path } from './formDoc';
import { checkSchemaText } from './jsonSchemaCheck';

const asJson = (v: unknown) => (v === undefined || v === null ? '' : JSON.stringify(v, null, 2));

/**
 * A JSON Schema (accepts, responds) edited as JSON. What the user types stays here until it is a
 * schema (or empty), then it is written into the draft as YAML; a change of the draft from
 * elsewhere replaces the text. While the text is not a schema the YAML keeps the last good one.
 */
export function SchemaField({ label, path, hint }: { label: string; path: Path; hint: string }) {
  const { data, write, issues } = useForm();
  const id = useId();
  const written = asJson(valueAt(data, path));
  const [text, setText] = useState(written);
  useEffect(() => {
    // Only a change of the draft resets the text; typing must not.
    const mine = checkSchemaText(text);
    const same =
      written === ''
        ? text.trim() === '' || !mine.ok
        : mine.ok && JSON.stringify(mine.value) === JSON.stringify(JSON.parse(written));
    if (!same) setText(written);
  }, [written]);
  const check = text.trim() === '' ? null : checkSchemaText(text);
  const local =
    check && !check.ok ? `${check.problem.replace(/\.?$/, '.')} The YAML keeps the last valid schema.` : undefined;
  const problems = issuesAt(issues, path);
  return (
    <div className="field field-wide">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className="textarea json-input"
        rows={6}
        spellCheck={false}
        value={text}
        placeholder={hint}
        title={hint}
        aria-invalid={problems.length > 0 || !!local || undefined}
        aria-describedby={problems.length || local ? `${id}-error` : undefined}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value.trim() === '') return write(path.join('.'), setAt(path, ''));
          const c = checkSchemaText(e.target.value);
          if (c.ok) write(path.join('.'), setAt(path, c.value));
        }}
      />
      <Problems id={`${id}-error`} problems={problems} local={local} />
    </div>
  );
}
