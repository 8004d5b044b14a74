import { useForm } from './FormContext';
import { Section, TextField } from './fields';
import { pushAt, textAt } from './formDoc';
import { ReplyCard } from './ReplyCard';
import { readScript, REPLIES, SCRIPT } from './rehearsalScript';

/** The rehearsal script: replies chosen by the task, each a list of scripted turns. */
export function RehearsalSection() {
  const { data, write } = useForm();
  const rehearsal = textAt(data, ['inference', 'driver', 'artifact']) === 'capsule/driver-rehearsal';
  const script = readScript(data);
  if (!rehearsal && script.replies.length === 0 && !script.malformed) return null;
  if (script.malformed) {
    return (
      <Section title="Rehearsal script">
        <p className="field-error field-wide">
          inference.rehearsal is not a map with a list of replies; fix it in the YAML view to edit it here.
        </p>
      </Section>
    );
  }
  // The first reply with no condition matches every task: replies after it are never used.
  const catchAll = script.replies.findIndex((r) => !r.malformed && !r.when && !r.messageId && !r.hasMetadata);
  return (
    <Section
      title="Rehearsal script"
      note={
        <>
          {!rehearsal ? 'Used only with the Rehearsal driver. ' : null}
          The first reply whose conditions hold answers the task; with none, the task is acknowledged by quoting its
          text.
          {script.recordedFrom ? ` Recorded from ${script.recordedFrom}.` : ''}
        </>
      }
      actions={
        <button
          type="button"
          className="btn btn-small"
          onClick={() => write('replies+', pushAt(REPLIES, { when: 'task', turns: [{ text: 'Done: {{task}}' }] }))}
        >
          Add reply
        </button>
      }
    >
      <TextField label="Delay before every turn (ms)" path={[...SCRIPT, 'delay_ms']} kind="int" placeholder="0" />
      {script.replies.map((r, i) => (
        <ReplyCard
          key={i}
          index={i}
          reply={r}
          count={script.replies.length}
          shadowedBy={catchAll >= 0 && catchAll < i ? catchAll : -1}
        />
      ))}
      {script.hiddenReplies ? (
        <p className="field-hint field-wide">{script.hiddenReplies} more replies are in the YAML view.</p>
      ) : null}
    </Section>
  );
}
