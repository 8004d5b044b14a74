import { useEffect, useMemo, useState } from 'react';
import type { IssueView } from '../../../src-shared/contract';
import { MANIFEST_FIELDS, parseJsonField, readFields, writeField, type ManifestField } from './manifestFields';

interface ManifestFormProps {
  draft: string;
  issues: IssueView[];
  onChange(text: string): void;
}

const issuesFor = (f: ManifestField, issues: IssueView[]) => {
  const p = f.path.join('.');
  return issues.filter((i) => i.path === p || i.path.startsWith(`${p}.`));
};

/** The common fields of a manifest as a form; every change is written into the YAML draft. */
export function ManifestForm({ draft, issues, onChange }: ManifestFormProps) {
  const values = useMemo(() => readFields(draft), [draft]);
  if (!values) {
    return <p className="manifest-note">The YAML does not parse, so the form is paused. Fix the text in the YAML view; the problem is listed below.</p>;
  }
  return (
    <div className="manifest-form">
      {MANIFEST_FIELDS.map((f) => {
        const id = `mf-${f.key}`;
        const problems = issuesFor(f, issues);
        const errId = problems.length ? `${id}-error` : undefined;
        const set = (v: string | boolean) => onChange(writeField(draft, f, v));
        const value = values[f.key];
        if (f.kind === 'checkbox') {
          return (
            <div key={f.key} className="field field-inline">
              <label className="checkbox" htmlFor={id}>
                <input id={id} type="checkbox" checked={value === true} onChange={(e) => set(e.target.checked)} aria-describedby={errId} />
                {f.label}
              </label>
              <FieldProblems id={errId} problems={problems} />
            </div>
          );
        }
        if (f.kind === 'json') {
          return <JsonField key={f.key} id={id} field={f} value={String(value)} problems={problems} errId={errId} onWrite={(v) => onChange(writeField(draft, f, v))} />;
        }
        const common = {
          id,
          className: f.kind === 'select' ? 'select' : 'input',
          'aria-invalid': problems.length > 0 || undefined,
          'aria-describedby': errId,
        };
        return (
          <div key={f.key} className={`field${f.key === 'description' || f.key === 'driver' ? ' field-wide' : ''}`}>
            <label className="field-label" htmlFor={id}>
              {f.label}
            </label>
            {f.kind === 'select' ? (
              <select {...common} value={String(value)} onChange={(e) => set(e.target.value)}>
                {value === '' ? <option value="">—</option> : null}
                {!f.options?.includes(String(value)) && value !== '' ? <option value={String(value)}>{String(value)}</option> : null}
                {f.options?.map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
              </select>
            ) : (
              <input {...common} inputMode={f.kind === 'number' ? 'numeric' : undefined} value={String(value)} onChange={(e) => set(e.target.value)} title={f.hint} />
            )}
            <FieldProblems id={errId} problems={problems} />
          </div>
        );
      })}
    </div>
  );
}

/**
 * A map edited as JSON. What the user types is kept here until it is a JSON object (or empty),
 * then written into the draft; a change of the draft from elsewhere replaces the text.
 */
function JsonField(props: { id: string; field: ManifestField; value: string; problems: IssueView[]; errId?: string; onWrite(v: string): void }) {
  const { id, field, value, problems, onWrite } = props;
  const [text, setText] = useState(value);
  useEffect(() => {
    const mine = parseJsonField(text);
    if (value === '' ? text.trim() !== '' && mine !== undefined : JSON.stringify(mine) !== JSON.stringify(parseJsonField(value))) setText(value);
    // Only a change of the draft resets the text; typing must not.
  }, [value]);
  const pending = text.trim() !== '' && parseJsonField(text) === undefined;
  const localId = `${id}-json`;
  const describedBy = [props.errId, pending ? localId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field field-wide">
      <label className="field-label" htmlFor={id}>
        {field.label}
      </label>
      <textarea
        id={id}
        className="input json-input"
        rows={6}
        spellCheck={false}
        value={text}
        title={field.hint}
        placeholder={field.hint}
        aria-invalid={problems.length > 0 || pending || undefined}
        aria-describedby={describedBy}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value.trim() === '') onWrite('');
          else if (parseJsonField(e.target.value)) onWrite(e.target.value);
        }}
      />
      {pending ? (
        <span id={localId} className="field-error">
          Not a JSON object yet: the YAML keeps the last valid schema.
        </span>
      ) : null}
      <FieldProblems id={props.errId} problems={problems} />
    </div>
  );
}

function FieldProblems({ id, problems }: { id?: string; problems: IssueView[] }) {
  if (!id) return null;
  return (
    <span id={id} className="field-error">
      {problems.map((p) => p.message).join('; ')}
    </span>
  );
}
