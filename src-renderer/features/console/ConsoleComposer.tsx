import { useEffect, useState, type FormEvent } from 'react';
import { MAX_FILE_BYTES, type DataProblem } from '../../../src-shared/contract';
import { useStudio } from '../../store';
import { draftKey, keepDraft, readDraft } from './drafts';
import type { PickedFile } from './readFiles';
import { useDataCheck } from './useDataCheck';

const kib = (n: number) => (n < 1024 ? `${n} B` : `${Math.ceil(n / 1024)} KiB`);

/** The message box: text, an optional data part (checked against the capsule's contract as you type) and files. */
export function ConsoleComposer({
  capsuleId,
  running,
  placeholder,
}: {
  capsuleId: string | null;
  running: boolean;
  placeholder: string;
}) {
  // Mounted once per capsule (the panel keys it by capsule): it starts from that capsule's draft.
  const [key] = useState(() => draftKey(useStudio.getState().workspace?.dir, capsuleId));
  const [text, setText] = useState(() => readDraft(key)?.text ?? '');
  const [dataOpen, setDataOpen] = useState(() => readDraft(key)?.dataOpen ?? false);
  const [dataText, setDataText] = useState(() => readDraft(key)?.dataText ?? '');
  const [files, setFiles] = useState<PickedFile[]>(() => readDraft(key)?.files ?? []);
  useEffect(() => keepDraft(key, { text, dataText, dataOpen, files }), [key, text, dataText, dataOpen, files]);
  const [fileError, setFileError] = useState<string>();
  const [refused, setRefused] = useState<{ text: string; problems: DataProblem[] }>();
  const data = useDataCheck(capsuleId, dataText, dataOpen && running);
  const serverProblems = refused && refused.text === dataText ? refused.problems : [];
  const problems = data.problems.length ? data.problems : serverProblems;
  const dataBad = dataOpen && (!!data.syntax || problems.length > 0 || data.checking);
  const empty = !text.trim() && !(dataOpen && data.value !== undefined) && files.length === 0;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!running || empty || dataBad) return;
    const sent = { text: text.trim(), ...(dataOpen && data.value !== undefined ? { data: data.value } : {}), files };
    setText('');
    setFiles([]);
    const outcome = await useStudio.getState().sendMessage(sent);
    if (outcome.ok) {
      setDataText('');
      setDataOpen(false);
      setRefused(undefined);
    } else if (outcome.problems) {
      setText(sent.text);
      setFiles(sent.files);
      setDataOpen(true);
      setRefused({ text: dataText, problems: outcome.problems });
    }
  };

  return (
    <form className="console-composer" onSubmit={submit} aria-label="New message">
      {dataOpen ? (
        <div className="console-data">
          <label htmlFor="console-data" className="console-data-label">
            Data (JSON)
            <span className="muted">
              {' '}
              {data.contract
                ? "checked against the capsule's input contract"
                : data.contract === false
                  ? 'this capsule declares no input contract'
                  : ''}
            </span>
          </label>
          <textarea
            id="console-data"
            className="textarea mono console-data-text"
            rows={2}
            spellCheck={false}
            placeholder='{"priority": 1}'
            value={dataText}
            onChange={(e) => setDataText(e.target.value)}
            aria-invalid={!!data.syntax || problems.length > 0}
            aria-describedby="console-data-problems"
            disabled={!running}
          />
          <ul
            id="console-data-problems"
            className="console-data-problems"
            aria-label="Data problems"
            aria-live="polite"
          >
            {data.syntax ? <li className="error-text">{data.syntax}</li> : null}
            {problems.map((p, i) => (
              <li key={i} className="error-text">
                {p.field ? <code>{p.field}</code> : 'the data'}: {p.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {files.length || fileError ? (
        <div className="console-files">
          <ul className="console-file-list" aria-label="Attached files">
            {files.map((f) => (
              <li key={f.name} className="console-chip">
                file {f.name} ({kib(f.size)})
                <button
                  type="button"
                  className="btn-icon"
                  aria-label={`Remove ${f.name}`}
                  onClick={() => setFiles((fs) => fs.filter((x) => x.name !== f.name))}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
          {fileError ? (
            <span className="error-text" role="alert">
              {fileError}
            </span>
          ) : null}
        </div>
      ) : null}
      <div className="console-compose-row">
        <label className="visually-hidden" htmlFor="console-message">
          Message
        </label>
        <input
          id="console-message"
          className="input console-input"
          placeholder={placeholder}
          value={text}
          onChange={(e) => setText(e.target.value)}
          disabled={!running}
          maxLength={200_000}
        />
        <button
          type="button"
          className="btn"
          aria-pressed={dataOpen}
          disabled={!running}
          onClick={() => setDataOpen((o) => !o)}
          title="Send a JSON data part with the message"
        >
          Data
        </button>
        <label
          className={`btn${running ? '' : ' btn-disabled'}`}
          title={`Attach files (up to ${Math.floor(MAX_FILE_BYTES / 1024)} KiB in all)`}
        >
          Attach file
          <input
            type="file"
            multiple
            className="visually-hidden"
            aria-label="Attach file"
            disabled={!running}
            onChange={async (e) => {
              const picked = [...(e.target.files ?? [])];
              e.target.value = '';
              // Reading files loads with the first file attached.
              const { addFiles } = await import('./readFiles');
              const r = await addFiles(files, picked);
              setFiles(r.files);
              setFileError(r.error);
            }}
          />
        </label>
        <button type="submit" className="btn btn-primary" disabled={!running || empty || dataBad}>
          Send
        </button>
      </div>
    </form>
  );
}
