import { useId, useState, type ReactNode } from 'react';
import { issuesAt, pathKey, useForm } from './FormContext';
import { Problems } from './fields';
import { listAt, pushAt, removeAt, setValueAt, type Path } from './formDoc';

// A list of strings (allow entries, shell binaries, a skill's tags): each entry editable in place,
// removable, and a new one added from the field below. `locked(i)` marks entries the form shows
// but does not edit (the allow entries an edge owns), with what owns them.

interface StringListProps {
  title: string;
  /** Singular, for the controls' names ("Allow entry 1", "Remove allow entry 1"). */
  item: string;
  path: Path;
  placeholder: string;
  hint?: ReactNode;
  locked?: (index: number) => ReactNode | null;
  /** A problem with a new entry before it is added ('' when fine). */
  check?: (entry: string) => string;
}

/** At most this many entries are drawn; the rest stay in the YAML and are counted. */
export const MAX_ENTRIES = 200;

export function StringList({ title, item, path, placeholder, hint, locked, check }: StringListProps) {
  const { data, write, issues } = useForm();
  const entries = listAt(data, path);
  const [draft, setDraft] = useState('');
  const id = useId();
  const cap = item.charAt(0).toUpperCase() + item.slice(1);
  const draftProblem = draft.trim() ? (check?.(draft.trim()) ?? '') : '';
  const listProblems = issuesAt(issues, path, { exact: true });
  const add = () => {
    const v = draft.trim();
    if (!v || draftProblem) return;
    write(`${pathKey(path)}+`, pushAt(path, v));
    setDraft('');
  };
  return (
    <div className="field field-wide string-list">
      <span className="field-label" id={`${id}-title`}>
        {title}
      </span>
      {hint ? <span className="field-hint">{hint}</span> : null}
      <ul className="string-list-items" aria-labelledby={`${id}-title`}>
        {entries.slice(0, MAX_ENTRIES).map((entry, i) => {
          const owner = locked?.(i);
          const problems = issuesAt(issues, [...path, i]);
          const text = typeof entry === 'string' || typeof entry === 'number' ? String(entry) : JSON.stringify(entry);
          return (
            <li key={i} className="string-list-item">
              {owner ? (
                <>
                  <span
                    className="input mono string-locked"
                    role="textbox"
                    aria-readonly="true"
                    aria-label={`${cap} ${i + 1}`}
                    tabIndex={0}
                  >
                    {text}
                  </span>
                  <span className="owned-by">{owner}</span>
                </>
              ) : (
                <>
                  <input
                    className="input mono"
                    aria-label={`${cap} ${i + 1}`}
                    value={text}
                    aria-invalid={problems.length > 0 || undefined}
                    aria-describedby={problems.length ? `${id}-${i}-error` : undefined}
                    onChange={(e) => write(pathKey([...path, i]), setValueAt([...path, i], e.target.value))}
                  />
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={`Remove ${item} ${i + 1}`}
                    onClick={() => write(`${pathKey(path)}-`, removeAt(path, i))}
                  >
                    Remove
                  </button>
                </>
              )}
              <Problems id={`${id}-${i}-error`} problems={problems} />
            </li>
          );
        })}
      </ul>
      {entries.length > MAX_ENTRIES ? (
        <span className="field-hint">{entries.length - MAX_ENTRIES} more entries are in the YAML view.</span>
      ) : null}
      <div className="form-row">
        <input
          className="input mono"
          aria-label={`New ${item}`}
          placeholder={placeholder}
          value={draft}
          aria-invalid={!!draftProblem || undefined}
          aria-describedby={draftProblem ? `${id}-new-error` : undefined}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
        />
        <button
          type="button"
          className="btn"
          aria-label={`Add ${item}`}
          disabled={!draft.trim() || !!draftProblem}
          onClick={add}
        >
          Add
        </button>
      </div>
      <Problems id={`${id}-new-error`} problems={listProblems} local={draftProblem || undefined} />
    </div>
  );
}
