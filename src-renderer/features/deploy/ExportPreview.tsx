import { useState } from 'react';
import type { DeployPreview } from '../../../src-shared/contract';

// What an export holds: each file with its object's kind, the selected file's YAML, and how every
// edge of the graph becomes two NetworkPolicies (the source's egress, the target's ingress).

/** `written`: the files the last Export wrote into the folder shown (marked written, not "exists"). */
export function ExportPreview({ preview, written = [] }: { preview: DeployPreview; written?: readonly string[] }) {
  const [chosen, setChosen] = useState<string | null>(null);
  const file = preview.files.find((f) => f.name === chosen) ?? preview.files[0];
  if (!file) return null;
  return (
    <div className="export-preview">
      <div className="export-files">
        <h3>Files ({preview.files.length})</h3>
        <ul className="export-file-list" aria-label="Files of the export">
          {preview.files.map((f) => (
            <li key={f.name}>
              <button
                type="button"
                className="export-file"
                aria-pressed={f === file}
                title={f.name}
                onClick={() => setChosen(f.name)}
              >
                <span className="export-kind">{f.kind}</span>
                <span className="mono">{f.name}</span>
                {written.includes(f.name) ? (
                  <span className="export-done">written</span>
                ) : preview.existing.includes(f.name) ? (
                  <span className="export-exists">exists</span>
                ) : null}
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div className="export-yaml">
        <h3 className="mono">{file.name}</h3>
        <pre className="mono" aria-label={`Preview of ${file.name}`} tabIndex={0}>
          {file.text}
        </pre>
      </div>
      <div className="export-edges">
        <h3>Network policies per edge</h3>
        {preview.edges.length === 0 ? (
          <p className="muted">No edges: every pod is denied all traffic but DNS (capsule-default-deny).</p>
        ) : (
          <table className="export-edge-table" aria-label="Network policies per edge">
            <thead>
              <tr>
                <th>Edge</th>
                <th>Egress</th>
                <th>Ingress</th>
              </tr>
            </thead>
            <tbody>
              {preview.edges.map((e) => (
                <tr key={`${e.source}>${e.target}`}>
                  <td>
                    {e.source} → {e.kind === 'capsule' ? e.target : <span className="mono">{e.allowEntry}</span>}
                  </td>
                  <td className="mono">{e.egressPolicy}</td>
                  <td className="mono">{e.ingressPolicy ?? <span className="muted">outside the cluster</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p className="muted export-deny">Everything else is denied by capsule-default-deny.</p>
      </div>
    </div>
  );
}
