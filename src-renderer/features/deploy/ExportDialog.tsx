import { useEffect, useState, type FormEvent } from 'react';
import { DEFAULT_IMAGE, DEFAULT_NAMESPACE } from '../../../src-shared/contract/deploy';
import type { DeployWritten } from '../../../src-shared/contract';
import { Dialog } from '../../ui/Dialog';
import { TextInput } from '../../ui/TextInput';
import { describeError, invoke, runLong, SHOW_LONG_AFTER_MS } from '../../store';
import { ExportPreview } from './ExportPreview';
import { useExportPreview, type ExportOptions } from './useExportPreview';
import './deploy.css';

// "Export for Kubernetes…": the options of `capsule deploy kubernetes`, a live preview of the
// files, then a write into a folder (the desktop's folder dialog, or a typed path). Files already
// there are written over only after the user says so. A ${VAR} is mapped to a Secret by name and
// key; its value is never read, sent or shown.

type SecretRows = Record<string, { secret: string; key: string }>;

/** A first guess the user edits: one Secret for the formation, a key per variable. */
const suggested = (name: string) => ({ secret: 'capsule-secrets', key: name.toLowerCase().replace(/_/g, '-') });

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : word.endsWith('s') ? 'es' : 's'}`;

export function ExportDialog({ onClose }: { onClose(): void }) {
  const [namespace, setNamespace] = useState(DEFAULT_NAMESPACE);
  const [image, setImage] = useState(DEFAULT_IMAGE);
  const [host, setHost] = useState('');
  const [secrets, setSecrets] = useState<SecretRows>({});
  const [dir, setDir] = useState('');
  const [canPick, setCanPick] = useState(false);
  const [busy, setBusy] = useState(false);
  const [version, setVersion] = useState(0);
  const [confirm, setConfirm] = useState<string[] | null>(null);
  // What the last Export wrote, and into which folder as typed: files of an export just written
  // are "already there" by construction, which is no news to tell the user about.
  const [written, setWritten] = useState<{ result: DeployWritten; folder: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const folder = dir.trim();
  const options: ExportOptions = {
    namespace: namespace.trim() || undefined,
    image: image.trim() || undefined,
    host: host.trim() || undefined,
    secrets,
    ...(folder ? { dir: folder } : {}),
  };
  const { preview, error: previewError } = useExportPreview(options, version);

  useEffect(() => {
    invoke('studio.capabilities', {}).then(
      (c) => setCanPick(c.pickFolder),
      () => setCanPick(false),
    );
  }, []);
  // Each variable the manifests reference gets a row, pre-filled with a guess.
  useEffect(() => {
    const missing = preview?.vars.filter((v) => !secrets[v]) ?? [];
    if (missing.length) setSecrets((s) => ({ ...s, ...Object.fromEntries(missing.map((v) => [v, suggested(v)])) }));
  }, [preview, secrets]);

  const write = async (overwrite: boolean) => {
    if (!folder) return;
    setBusy(true);
    // The last export's report goes as this one starts: it never stands beside this one's question or outcome.
    setWritten(null);
    setError(null);
    setConfirm(null);
    try {
      // Usually quick; a slow disk or a big formation shows it in the bar, where Esc stops it.
      const result = await runLong(
        'Writing the Kubernetes files',
        (signal) => invoke('deploy.write', { ...options, dir: folder, overwrite }, { signal }),
        { showAfterMs: SHOW_LONG_AFTER_MS },
      );
      setWritten({ result, folder });
    } catch (err) {
      const { code, details } = err as { code?: string; details?: { existing?: string[] } };
      if (code === 'conflict' && details?.existing) setConfirm(details.existing);
      else if (code === 'canceled')
        setError('Export canceled. The folder holds all of its files or none; Export again to be sure.');
      else setError(describeError(err));
    } finally {
      setBusy(false);
      setVersion((v) => v + 1);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void write(false);
  };
  const pick = async () => {
    const picked = await invoke('workspace.pickFolder', { purpose: 'export' }).catch(() => ({ dir: null }));
    if (picked.dir) setDir(picked.dir);
  };
  const setRow = (name: string, field: 'secret' | 'key', value: string) =>
    setSecrets((s) => ({ ...s, [name]: { ...(s[name] ?? suggested(name)), [field]: value } }));
  const problem = previewError ?? preview?.problem;
  // Not while Export asks about those very files (the question names them).
  const alreadyThere = confirm || written?.folder === folder ? 0 : (preview?.existing.length ?? 0);

  return (
    <Dialog title="Export for Kubernetes" onClose={onClose}>
      <div className="export" data-testid="export">
        <form className="export-form" onSubmit={submit}>
          <p className="muted">
            The same manifests as <code>capsule deploy kubernetes</code>: per capsule a ConfigMap, Deployment and
            Service, the network policies the graph implies, the gateway for exposed capsules. Nothing is sent to a
            cluster.
          </p>
          <div className="export-grid">
            <TextInput label="Namespace" value={namespace} onChange={setNamespace} />
            <TextInput label="Runtime image" value={image} onChange={setImage} />
            <TextInput
              label="Ingress host"
              value={host}
              onChange={setHost}
              placeholder="agents.example.com (none: no Ingress)"
            />
          </div>
          {preview && preview.vars.length > 0 ? (
            <fieldset className="export-secrets">
              <legend>Secrets on the cluster</legend>
              <p className="muted">
                Each {'${VAR}'} is read from a Secret key you name; its value is never read here or written.
              </p>
              {preview.vars.map((v) => (
                <div key={v} className="export-secret-row">
                  <code>{`\${${v}}`}</code>
                  <input
                    className="input mono"
                    aria-label={`Secret for ${v}`}
                    value={secrets[v]?.secret ?? ''}
                    onChange={(e) => setRow(v, 'secret', e.target.value)}
                    spellCheck={false}
                  />
                  <span aria-hidden="true">/</span>
                  <input
                    className="input mono"
                    aria-label={`Key for ${v}`}
                    value={secrets[v]?.key ?? ''}
                    onChange={(e) => setRow(v, 'key', e.target.value)}
                    spellCheck={false}
                  />
                </div>
              ))}
            </fieldset>
          ) : null}
          <div className="field">
            <label className="field-label" htmlFor="export-dir">
              Folder
            </label>
            <div className="export-row">
              <input
                id="export-dir"
                className="input mono"
                placeholder="/home/me/deploy/kubernetes"
                value={dir}
                onChange={(e) => setDir(e.target.value)}
                spellCheck={false}
              />
              {canPick ? (
                <button type="button" className="btn" onClick={() => void pick()}>
                  Choose…
                </button>
              ) : null}
            </div>
            {alreadyThere > 0 ? (
              <span className="export-hint">
                {plural(alreadyThere, 'file')} of this export {alreadyThere === 1 ? 'is' : 'are'} already in this
                folder; Export asks before replacing {alreadyThere === 1 ? 'it' : 'them'}.
              </span>
            ) : null}
          </div>
          {problem ? (
            <p className="error-text" role="alert">
              {problem}
            </p>
          ) : null}
          {confirm ? (
            <div className="export-confirm" role="group" aria-label="Replace existing files">
              <p>
                {folder} already holds {plural(confirm.length, 'file')} of this export ({confirm.slice(0, 4).join(', ')}
                {confirm.length > 4 ? ', …' : ''}). Replace them?
              </p>
              <div className="dialog-actions">
                <button type="button" className="btn" onClick={() => setConfirm(null)}>
                  Keep them
                </button>
                <button type="button" className="btn btn-danger" onClick={() => void write(true)}>
                  Replace files
                </button>
              </div>
            </div>
          ) : null}
          {error ? (
            <p className="error-text" role="alert">
              {error}
            </p>
          ) : null}
          {written ? <Written written={written.result} /> : null}
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={onClose}>
              Close
            </button>
            <button
              type="submit"
              className="btn btn-primary"
              disabled={busy || !folder || !preview || preview.files.length === 0 || Boolean(problem)}
            >
              Export
            </button>
          </div>
        </form>
        {preview ? (
          <ExportPreview preview={preview} written={written?.folder === folder ? written.result.files : undefined} />
        ) : (
          <p className="muted">Reading the formation…</p>
        )}
      </div>
    </Dialog>
  );
}

function Written({ written }: { written: DeployWritten }) {
  const kinds = Object.entries(written.kinds)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  return (
    <div className="export-written" role="status" aria-label="Export written">
      <p>
        Wrote {plural(written.files.length, 'file')} to <span className="mono">{written.dir}</span>
        {written.replaced.length ? ` (${written.replaced.length} replaced)` : ''}: {kinds}.
      </p>
      <pre className="mono export-notes">{written.notes.join('\n')}</pre>
    </div>
  );
}
