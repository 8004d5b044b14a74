import { lazy, Suspense, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useStudio } from '../../store';
import { checkManifest } from './manifestCheck';
import { ManifestForm } from './ManifestForm';
import { revealLine } from './code/reveal';
import { RestartToApply } from '../../ui/RestartToApply';
import './manifest.css';

// CodeMirror loads with the first YAML view, not with the Studio.
const YamlEditor = lazy(() => import('./YamlEditor').then((m) => ({ default: m.YamlEditor })));

type View = 'form' | 'yaml';

/** The selected capsule's manifest: form and raw YAML over one draft, Save, conflicts. */
export function ManifestPanel({ capsuleId }: { capsuleId: string }) {
  const editor = useStudio((s) => s.editor);
  const capsule = useStudio((s) => s.capsules[capsuleId]);
  const [view, setView] = useState<View>('form');
  useEffect(() => void useStudio.getState().openEditor(capsuleId), [capsuleId]);

  const draft = editor?.id === capsuleId ? editor.draft : '';
  const dirty = !!editor && editor.draft !== editor.baseSource;
  // Checking runs on a deferred copy so typing never waits on the YAML parser.
  const deferred = useDeferredValue(draft);
  const localIssues = useMemo(() => (dirty ? checkManifest(deferred) : []), [dirty, deferred]);
  if (!editor || editor.id !== capsuleId || !capsule) return null;
  const issues = dirty ? localIssues : editor.issues;
  const { setDraft, saveManifest, reloadManifest, overwriteManifest } = useStudio.getState();

  return (
    <section className="manifest-panel" aria-label={`Manifest of ${capsule.name}`}>
      <div className="manifest-head">
        <div className="manifest-title">
          <span className="manifest-file mono" title={capsule.manifestPath}>
            {capsule.manifestPath}
          </span>
          <span className="manifest-status" data-dirty={dirty || undefined}>
            {editor.saving ? 'Saving…' : dirty ? 'Unsaved changes' : 'Saved'}
          </span>
        </div>
        <div className="manifest-actions">
          <button
            type="button"
            className="btn"
            disabled={!dirty || editor.saving}
            onClick={() => setDraft(editor.baseSource)}
          >
            Revert
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={!dirty || editor.saving || !!editor.conflict}
            onClick={() => void saveManifest()}
          >
            Save
          </button>
        </div>
      </div>
      <RestartToApply id={capsuleId} />
      {editor.conflict ? (
        <div className="manifest-conflict" role="alert">
          <p>
            <strong>The file changed on disk.</strong> {editor.conflict.message} Your edits are still here.
          </p>
          <div className="manifest-actions">
            <button type="button" className="btn" onClick={() => void reloadManifest()}>
              Reload from disk (drop my edits)
            </button>
            <button type="button" className="btn btn-danger" onClick={() => void overwriteManifest()}>
              Overwrite with my edits
            </button>
          </div>
        </div>
      ) : null}
      <div className="segmented" role="tablist" aria-label="Manifest view">
        <button
          type="button"
          role="tab"
          aria-selected={view === 'form'}
          className="segment"
          onClick={() => setView('form')}
        >
          Form
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={view === 'yaml'}
          className="segment"
          onClick={() => setView('yaml')}
        >
          YAML
        </button>
      </div>
      <div className="manifest-body">
        {view === 'form' ? (
          <ManifestForm capsuleId={capsuleId} draft={draft} issues={issues} onChange={setDraft} />
        ) : (
          <Suspense fallback={<div className="yaml-editor" aria-busy="true" />}>
            <YamlEditor
              capsuleId={capsuleId}
              value={draft}
              authority={dirty ? undefined : { text: editor.baseSource, issues: editor.issues }}
              onChange={setDraft}
              onSave={() => void saveManifest()}
            />
          </Suspense>
        )}
      </div>
      {issues.length > 0 ? (
        <div className="manifest-issues">
          <h3>
            {issues.length} problem{issues.length > 1 ? 's' : ''}
            {dirty ? ' in this draft' : ''}
          </h3>
          <ul aria-label="Manifest problems">
            {issues.map((i, k) => (
              <li key={k}>
                <button
                  type="button"
                  className="issue"
                  aria-label={`${i.line ? `Line ${i.line}` : 'File'}: ${i.path ? `${i.path} ` : ''}${i.message}`}
                  onClick={() => {
                    if (!i.line) return;
                    setView('yaml');
                    revealLine(i.line!, i.column);
                  }}
                >
                  <span className="issue-where">{i.line ? `Line ${i.line}` : 'File'}</span>
                  <span className="issue-text">
                    {i.path ? <code>{i.path}</code> : null} {i.message}
                    {i.hint ? <span className="muted"> — {i.hint}</span> : null}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
