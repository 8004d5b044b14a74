import { useState, type FormEvent } from 'react';
import { useStudio } from '../../store';
import { Dialog, FormActions } from '../../ui/Dialog';

// Attach runtime…: the URL and token `capsule serve --studio` printed on the other host. The token
// goes to the core once and the field is cleared; the core keeps it in its secret store.

export function AttachRuntimeDialog() {
  const open = useStudio((s) => s.attachOpen);
  const [url, setUrl] = useState('');
  const [token, setToken] = useState('');
  const [label, setLabel] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!open) return null;
  const close = () => {
    setUrl('');
    setToken('');
    setLabel('');
    setError(null);
    useStudio.getState().closeAttach();
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!/^https?:\/\/\S+$/i.test(url.trim()))
      return setError('Give the http:// or https:// URL the serve printed as "studio: URL".');
    if (!token.trim()) return setError('Give the token the serve printed once as "studio token: …".');
    setBusy(true);
    const typed = token.trim();
    setToken('');
    const why = await useStudio.getState().attachRuntime(url.trim(), typed, label.trim() || undefined);
    setBusy(false);
    if (why) setError(why);
    else close();
  };
  return (
    <Dialog title="Attach a runtime" onClose={close}>
      <form onSubmit={submit} className="runtime-attach" noValidate>
        <p className="runtime-attach-hint">
          On the other host run <code>capsule serve --workspace DIR --studio</code>; it prints the Studio URL and a
          token once.
        </p>
        <div className="field">
          <label className="field-label" htmlFor="runtime-url">
            Runtime URL
          </label>
          <input
            id="runtime-url"
            className="input"
            autoFocus
            placeholder="http://127.0.0.1:7420"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor="runtime-token">
            Token
          </label>
          <input
            id="runtime-token"
            className="input"
            type="password"
            autoComplete="off"
            value={token}
            onChange={(e) => setToken(e.target.value)}
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor="runtime-label">
            Label (optional)
          </label>
          <input
            id="runtime-label"
            className="input"
            placeholder="build server"
            value={label}
            onChange={(e) => setLabel(e.target.value)}
          />
        </div>
        {error ? (
          <span className="field-error" role="alert">
            {error}
          </span>
        ) : null}
        <FormActions onCancel={close} submit={busy ? 'Attaching…' : 'Attach'} disabled={busy} />
      </form>
    </Dialog>
  );
}
