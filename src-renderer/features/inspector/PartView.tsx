import type { Part } from '../../../src-shared/a2a';
import { describeError, invoke, useStudio } from '../../store';
import { base64Bytes, formatBytes } from './figures';
import { JsonBlock } from '../../ui/JsonBlock';

/** One part of a message or artifact: text as it is, data as JSON, a file as a card with a download. */
export function PartView({ part, label }: { part: Part; label: string }) {
  if (part.text !== undefined) return <div className="part-text">{part.text}</div>;
  if (part.data !== undefined) return <JsonBlock value={part.data} label={`${label} data`} />;
  if (part.raw !== undefined || part.url !== undefined) return <FileCard part={part} />;
  return <div className="muted">(an empty part)</div>;
}

function download(part: Part, name: string) {
  try {
    const bin = atob(part.raw ?? '');
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const url = URL.createObjectURL(new Blob([bytes], { type: part.mediaType || 'application/octet-stream' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (err) {
    useStudio.getState().notify('error', `The file ${name} could not be read: ${describeError(err)}`);
  }
}

function FileCard({ part }: { part: Part }) {
  const name = part.filename || (part.url ? part.url.split('/').pop() || 'file' : 'file');
  const size = part.raw !== undefined ? formatBytes(base64Bytes(part.raw)) : null;
  return (
    <div className="file-card" aria-label={`File ${name}`}>
      <span className="file-card-icon" aria-hidden>
        ▤
      </span>
      <span className="file-card-name mono" title={name}>
        {name}
      </span>
      <span className="muted">{[part.mediaType || 'unknown type', size ?? 'at a URL'].join(' · ')}</span>
      <span className="toolbar-spacer" />
      {part.raw !== undefined ? (
        <button
          type="button"
          className="btn btn-small"
          aria-label={`Download ${name}`}
          onClick={() => download(part, name)}
        >
          Download
        </button>
      ) : /^https?:\/\//i.test(part.url ?? '') ? (
        <button
          type="button"
          className="btn btn-small"
          aria-label={`Open ${name}`}
          title={part.url}
          onClick={() => void invoke('shell.openExternal', { url: part.url! }).catch(() => undefined)}
        >
          Open
        </button>
      ) : null}
    </div>
  );
}
