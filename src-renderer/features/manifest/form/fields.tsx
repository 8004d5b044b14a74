import { useId, type ReactNode } from 'react';
import type { IssueView } from '../../../../src-shared/contract';
import { issuesAt, pathKey, useForm } from './FormContext';
import { setAt, textAt, typed, valueAt, type Path } from './formDoc';

// The form's controls. Each reads its value from the draft at a path and writes it back through
// the form's one write path; its problems (from the draft checker, or the core's after Save)
// show under it and mark it invalid.

export function Problems({ id, problems, local }: { id: string; problems: IssueView[]; local?: string }) {
  if (problems.length === 0 && !local) return null;
  return (
    <span id={id} className="field-error">
      {[local, ...problems.map((p) => p.message)].filter(Boolean).join('; ')}
    </span>
  );
}

interface FieldProps {
  label: string;
  path: Path;
  /** The accessible name when the visible label is shorter than what e2e and screen readers need. */
  name?: string;
  hint?: string;
  wide?: boolean;
  placeholder?: string;
}

/**
 * The visible label. With a longer accessible `name` (a list item's "Reply 2 turn 1 text") the
 * control carries that name alone, so each control has exactly one name to be found by.
 */
function Label({ htmlFor, label, name }: { htmlFor: string; label: string; name?: string }) {
  return name ? (
    <span className="field-label" aria-hidden="true">
      {label}
    </span>
  ) : (
    <label className="field-label" htmlFor={htmlFor}>
      {label}
    </label>
  );
}

function useProblems(path: Path, exact = false) {
  const { issues } = useForm();
  return issuesAt(issues, path, { exact });
}

/** Text or a number; `kind` says what typed digits become. */
export function TextField({
  label,
  path,
  name,
  hint,
  wide,
  placeholder,
  kind = 'text',
  list,
}: FieldProps & { kind?: 'text' | 'int' | 'number'; list?: string }) {
  const { data, write } = useForm();
  const id = useId();
  const problems = useProblems(path);
  const value = textAt(data, path);
  return (
    <div className={`field${wide ? ' field-wide' : ''}`}>
      <Label htmlFor={id} label={label} name={name} />
      <input
        id={id}
        className={`input${kind === 'text' ? '' : ' input-number'}`}
        aria-label={name}
        value={value}
        list={list}
        title={hint}
        placeholder={placeholder}
        inputMode={kind === 'int' ? 'numeric' : kind === 'number' ? 'decimal' : undefined}
        aria-invalid={problems.length > 0 || undefined}
        aria-describedby={problems.length ? `${id}-error` : undefined}
        onChange={(e) => write(pathKey(path), setAt(path, typed(e.target.value, kind)))}
      />
      <Problems id={`${id}-error`} problems={problems} />
    </div>
  );
}

export function TextArea({ label, path, name, hint, placeholder, rows = 3 }: FieldProps & { rows?: number }) {
  const { data, write } = useForm();
  const id = useId();
  const problems = useProblems(path);
  return (
    <div className="field field-wide">
      <Label htmlFor={id} label={label} name={name} />
      <textarea
        id={id}
        className="textarea"
        rows={rows}
        aria-label={name}
        value={textAt(data, path)}
        title={hint}
        placeholder={placeholder}
        aria-invalid={problems.length > 0 || undefined}
        aria-describedby={problems.length ? `${id}-error` : undefined}
        onChange={(e) => write(pathKey(path), setAt(path, e.target.value))}
      />
      <Problems id={`${id}-error`} problems={problems} />
    </div>
  );
}

/** A choice of fixed values; '' (the default) removes the key. A value the list lacks is still shown. */
export function SelectField({
  label,
  path,
  name,
  options,
  emptyLabel = 'default',
  wide,
}: FieldProps & { options: readonly (string | { value: string; label: string })[]; emptyLabel?: string }) {
  const { data, write } = useForm();
  const id = useId();
  const problems = useProblems(path);
  const value = textAt(data, path);
  const opts = options.map((o) => (typeof o === 'string' ? { value: o, label: o } : o));
  return (
    <div className={`field${wide ? ' field-wide' : ''}`}>
      <Label htmlFor={id} label={label} name={name} />
      <select
        id={id}
        className="select"
        aria-label={name}
        value={value}
        aria-invalid={problems.length > 0 || undefined}
        aria-describedby={problems.length ? `${id}-error` : undefined}
        onChange={(e) => write(pathKey(path), setAt(path, e.target.value))}
      >
        <option value="">{emptyLabel}</option>
        {value && !opts.some((o) => o.value === value) ? <option value={value}>{value}</option> : null}
        {opts.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <Problems id={`${id}-error`} problems={problems} />
    </div>
  );
}

/** A boolean; unticked removes the key when `removeWhenOff`, else writes false. */
export function CheckField({ label, path, name, removeWhenOff = false }: FieldProps & { removeWhenOff?: boolean }) {
  const { data, write } = useForm();
  const id = useId();
  const problems = useProblems(path);
  const on = valueAt(data, path) === true;
  return (
    <div className="field field-inline">
      <label className="checkbox" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          aria-label={name}
          checked={on}
          aria-describedby={problems.length ? `${id}-error` : undefined}
          onChange={(e) =>
            write(
              pathKey(path),
              setAt(path, e.target.checked ? true : removeWhenOff || valueAt(data, path) === undefined ? '' : false),
            )
          }
        />
        {label}
      </label>
      <Problems id={`${id}-error`} problems={problems} />
    </div>
  );
}

/** A titled group of fields (a group named by its title, for assistive tech and e2e), with its actions beside the title. */
export function Section({
  title,
  children,
  note,
  actions,
}: {
  title: string;
  children: ReactNode;
  note?: ReactNode;
  actions?: ReactNode;
}) {
  const id = useId();
  return (
    <section className="form-section" role="group" aria-labelledby={id}>
      <div className="form-section-head">
        <h3 className="form-section-title" id={id}>
          {title}
        </h3>
        <span className="form-section-rule" aria-hidden="true" />
        {actions}
      </div>
      {note ? <p className="form-section-note">{note}</p> : null}
      <div className="form-grid">{children}</div>
    </section>
  );
}
