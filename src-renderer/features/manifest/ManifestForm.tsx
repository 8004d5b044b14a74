import { useMemo } from 'react';
import type { IssueView } from '../../../src-shared/contract';
import { MANIFEST_FIELDS, readFields, writeField, type ManifestField } from './manifestFields';

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

function FieldProblems({ id, problems }: { id?: string; problems: IssueView[] }) {
  if (!id) return null;
  return (
    <span id={id} className="field-error">
      {problems.map((p) => p.message).join('; ')}
    </span>
  );
}
