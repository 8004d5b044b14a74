import { useState, type FormEvent } from 'react';
import { describeError, invoke, useStudio } from '../store';

// "Save as test" in the sessions browser: the run becomes tests/<name>.yaml (as
// `capsule rehearse --save-test`), expecting what it did; a taken name is replaced only when asked.

const suggest = (capsule: string | undefined, sessionId: string) =>
  `${(capsule ?? 'session').toLowerCase().replace(/[^a-z0-9._-]+/g, '-')}-${sessionId.slice(-6)}`;

export function SaveAsTest({ sessionId, capsule }: { sessionId: string; capsule?: string }) {
  const [name, setName] = useState<string | null>(null);
  const [taken, setTaken] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = async (replace: boolean) => {
    if (!name) return;
    setError(null);
    try {
      const r = await invoke('tests.saveFromSession', { sessionId, name: name.trim(), replace });
      useStudio
        .getState()
        .notify(
          'info',
          `Test saved as ${r.file}: run it in Tools → Tests, or with capsule test.${r.notes.length ? ` Note: ${r.notes.join(' ')}` : ''}`,
        );
      setName(null);
      setTaken(false);
    } catch (err) {
      if ((err as { code?: string }).code === 'conflict') setTaken(true);
      else setError(describeError(err));
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save(false);
  };
  if (name === null)
    return (
      <button
        type="button"
        className="btn btn-small"
        title="Save this run as a regression test in the workspace's tests folder"
        onClick={() => setName(suggest(capsule, sessionId))}
      >
        Save as test
      </button>
    );
  return (
    <form className="save-test" onSubmit={submit} aria-label="Save as test">
      <input
        className="input mono"
        aria-label="Test name"
        value={name}
        autoFocus
        onChange={(e) => (setName(e.target.value), setTaken(false))}
        spellCheck={false}
      />
      {taken ? (
        <button type="button" className="btn btn-small btn-danger" onClick={() => void save(true)}>
          Replace {name}
        </button>
      ) : (
        <button type="submit" className="btn btn-small btn-primary" disabled={!name.trim()}>
          Save
        </button>
      )}
      <button type="button" className="btn btn-small" onClick={() => (setName(null), setTaken(false), setError(null))}>
        Cancel
      </button>
      {taken ? <span className="save-test-note">A test named {name} exists.</span> : null}
      {error ? (
        <span className="error-text" role="alert">
          {error}
        </span>
      ) : null}
    </form>
  );
}
