import { useState, type FormEvent } from 'react';
import type { Task } from '../../src-shared/a2a';
import { useStudio } from '../store';
import './InputReply.css';

/** The question of a task waiting for input (its status message). */
export const questionOf = (task: Task): string =>
  (task.status.message?.parts ?? [])
    .map((p) => p.text ?? '')
    .filter(Boolean)
    .join('\n');

/**
 * A task's question and a reply box, shown only while the task waits for input
 * (TASK_STATE_INPUT_REQUIRED). The reply continues that same task, with its taskId and contextId,
 * and the task runs on; its progress then arrives as task.updated. Used by the console and the
 * task inspector alike.
 */
export function InputReply({ capsuleId, task }: { capsuleId: string; task: Task }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  if (task.status.state !== 'TASK_STATE_INPUT_REQUIRED') return null;
  const question = questionOf(task);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim() || busy) return;
    setBusy(true);
    setError(undefined);
    const failed = await useStudio.getState().replyToTask(capsuleId, task, text.trim());
    setBusy(false);
    if (failed) setError(failed);
    else setText('');
  };
  return (
    <form className="input-reply" role="group" aria-label={`Input requested by task ${task.id}`} onSubmit={submit}>
      <div className="input-reply-question">
        <span className="input-reply-asks">asks</span> {question || 'The capsule waits for your input.'}
      </div>
      <div className="input-reply-row">
        <input
          className="input input-reply-text"
          aria-label="Reply"
          placeholder="Your answer…"
          value={text}
          onChange={(e) => setText(e.target.value)}
          disabled={busy}
          maxLength={200_000}
        />
        <button type="submit" className="btn btn-primary btn-small" disabled={busy || !text.trim()}>
          {busy ? 'Sending…' : 'Send reply'}
        </button>
      </div>
      {error ? (
        <div className="error-text" role="alert">
          Reply not sent: {error}
        </div>
      ) : null}
    </form>
  );
}
