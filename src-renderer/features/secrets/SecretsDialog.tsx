import { useEffect, useState, type FormEvent } from 'react';
import './secrets.css';
import type { SecretsView } from '../../../src-shared/contract';
import { Dialog } from '../../ui/Dialog';
import { describeError, invoke } from '../../store';

// Secrets for ${NAME} in manifests: set, replace or delete one by name. The value typed here goes
// to the core once (secrets.set) and the field is cleared; the core answers with names only, so
// no value ever sits in the store or on screen.

/** The environment that always exists (a type-only import keeps zod out of the page). */
const DEFAULT_ENVIRONMENT = 'default';

/** `initialName` fills the name field (the manifest form opens it for the secret its key names). */
export function SecretsDialog({ onClose, initialName = '' }: { onClose(): void; initialName?: string }) {
  const [view, setView] = useState<SecretsView | null>(null);
  const [name, setName] = useState(initialName);
  const [value, setValue] = useState('');
  const [environment, setEnvironment] = useState(DEFAULT_ENVIRONMENT);
  const [newEnvironment, setNewEnvironment] = useState('');
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const act = async (run: () => Promise<SecretsView>, done: string) => {
    setBusy(true);
    try {
      setView(await run());
      setMessage({ error: false, text: done });
    } catch (err) {
      setMessage({ error: true, text: describeError(err) });
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    invoke('secrets.list', {}).then(setView, (err) => setMessage({ error: true, text: describeError(err) }));
  }, []);

  const save = (e: FormEvent) => {
    e.preventDefault();
    const secret = { name: name.trim(), value, environment };
    setValue('');
    void act(
      () => invoke('secrets.set', secret),
      `Saved ${secret.name} in ${environment}. Its value is not shown again.`,
    ).then(() => setName(''));
  };
  const environments = view ? [...new Set([...view.environments, environment])] : [environment];

  return (
    <Dialog title="Secrets" onClose={onClose} closeButton>
      <div className="secrets" data-testid="secrets">
        <p className="secrets-where">
          {view
            ? view.store.kind === 'keychain'
              ? 'Kept in your system keychain.'
              : `Kept in ${view.store.where}, readable only by you.`
            : 'Loading…'}{' '}
          Manifests name them as <code>{'${NAME}'}</code>; a variable set in the Studio’s own environment wins.
        </p>
        <div className="field">
          <label className="field-label" htmlFor="secrets-launch-env">
            Launches use
          </label>
          <select
            id="secrets-launch-env"
            className="select"
            value={view?.environment ?? DEFAULT_ENVIRONMENT}
            disabled={!view || busy}
            onChange={(e) =>
              void act(
                () => invoke('secrets.useEnvironment', { environment: e.target.value }),
                `Launches now use ${e.target.value}.`,
              )
            }
          >
            {environments.map((env) => (
              <option key={env} value={env}>
                {env}
              </option>
            ))}
          </select>
        </div>
        {view && view.secrets.length > 0 ? (
          <table className="secrets-list">
            <thead>
              <tr>
                <th>Name</th>
                <th>Set in</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {view.secrets.map((s) => (
                <tr key={s.name}>
                  <td className="mono">{s.name}</td>
                  <td>
                    {s.environments.join(', ')}
                    {s.shadowedByProcess ? (
                      <span className="secrets-note"> (the Studio’s environment sets it too, and wins)</span>
                    ) : null}
                  </td>
                  <td>
                    {s.environments.map((env) => (
                      <button
                        key={env}
                        type="button"
                        className="btn"
                        disabled={busy}
                        aria-label={`Delete secret ${s.name} from ${env}`}
                        onClick={() =>
                          void act(
                            () => invoke('secrets.delete', { name: s.name, environment: env }),
                            `Deleted ${s.name} from ${env}.`,
                          )
                        }
                      >
                        Delete{s.environments.length > 1 ? ` (${env})` : ''}
                      </button>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : view ? (
          <p className="secrets-empty">No secrets yet.</p>
        ) : null}
        <form className="secrets-form" onSubmit={save}>
          <div className="field">
            <label className="field-label" htmlFor="secret-name">
              Secret name
            </label>
            <input
              id="secret-name"
              className="input mono"
              placeholder="ANTHROPIC_API_KEY"
              value={name}
              onChange={(e) => setName(e.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
          </div>
          <div className="field">
            <label className="field-label" htmlFor="secret-value">
              Value
            </label>
            <input
              id="secret-value"
              className="input mono"
              type="password"
              autoFocus={!!initialName}
              value={value}
              onChange={(e) => setValue(e.target.value)}
              autoComplete="off"
            />
          </div>
          <div className="field">
            <label className="field-label" htmlFor="secret-env">
              Environment
            </label>
            <div className="secrets-row">
              <select
                id="secret-env"
                className="select"
                value={environment}
                onChange={(e) => setEnvironment(e.target.value)}
              >
                {environments.map((env) => (
                  <option key={env} value={env}>
                    {env}
                  </option>
                ))}
              </select>
              <input
                className="input"
                aria-label="New environment name"
                placeholder="or a new one, e.g. prod"
                value={newEnvironment}
                onChange={(e) => setNewEnvironment(e.target.value)}
              />
              <button
                type="button"
                className="btn"
                disabled={!newEnvironment.trim()}
                onClick={() => {
                  setEnvironment(newEnvironment.trim());
                  setNewEnvironment('');
                }}
              >
                Add
              </button>
            </div>
          </div>
          <div className="dialog-actions">
            <button type="submit" className="btn btn-primary" disabled={busy || !name.trim() || !value}>
              Save secret
            </button>
          </div>
        </form>
        {message ? (
          <p
            className={message.error ? 'secrets-message error' : 'secrets-message'}
            role={message.error ? 'alert' : 'status'}
          >
            {message.text}
          </p>
        ) : null}
      </div>
    </Dialog>
  );
}
