import { MAX_FORK_MESSAGE_CHARS } from '../../../src-shared/contract';
import { replayedDelegations, useStudio } from '../../store';
import { ReplayedDelegations } from './ReplayedDelegations';

/**
 * "Fork from here": a new run of the task's capsule whose turns before the chosen one replay the
 * recording, then the capsule's driver (or the recording) answers, with the message as edited here.
 * The replayed turns were made with the recorded message, so an edited message does not change
 * what they delegate: the form says so, lets each replayed delegation's text be edited, and offers
 * to fork from turn 1 instead, where the model reads the edit from the start.
 */
export function ForkForm() {
  const d = useStudio((s) => s.forkDraft)!;
  const st = useStudio.getState();
  const replayed = d.turn - 1;
  const edited = d.message !== d.recorded;
  const delegations = replayedDelegations(d);
  return (
    <form
      className="fork-form"
      aria-label="Fork from here"
      onSubmit={(e) => {
        e.preventDefault();
        void st.startFork();
      }}
    >
      <h3 className="fork-title">Fork a recorded task</h3>
      <p className="muted mono fork-origin">
        {d.sessionId} · {d.taskId}
      </p>
      <label className="fork-field">
        <span>From turn</span>
        <input
          className="input"
          type="number"
          min={1}
          max={d.lastTurn}
          value={d.turn}
          aria-label="From turn"
          onChange={(e) =>
            st.editForkDraft({ turn: Math.max(1, Math.min(d.lastTurn, Math.floor(Number(e.target.value) || 1))) })
          }
        />
        <span className="muted">
          {replayed === 0
            ? 'No turn is replayed; '
            : `${replayed === 1 ? 'Turn 1 replays' : `Turns 1–${replayed} replay`} the recording (its tool calls and delegations run again); `}
          turn {d.turn} on is answered by the driver chosen below.
        </span>
      </label>
      <label className="fork-field">
        <span>Message {edited ? <em className="fork-edited">edited</em> : null}</span>
        <textarea
          className="input fork-message"
          rows={4}
          maxLength={MAX_FORK_MESSAGE_CHARS}
          value={d.message}
          aria-label="Fork message"
          onChange={(e) => st.editForkDraft({ message: e.target.value })}
        />
      </label>
      {edited && replayed > 0 ? (
        <p className="fork-note" role="note">
          The model reads your edited message from turn {d.turn} on.{' '}
          {replayed === 1 ? 'Turn 1 replays' : `Turns 1–${replayed} replay`} what it did with the recorded message
          {delegations.length ? ', so the delegations below send their texts as shown (edit them there)' : ''}.{' '}
          <button type="button" className="btn btn-small" onClick={() => st.editForkDraft({ turn: 1 })}>
            Fork from turn 1 instead
          </button>
        </p>
      ) : null}
      {replayed > 0 ? <ReplayedDelegations draft={d} delegations={delegations} /> : null}
      <fieldset className="fork-field fork-drivers">
        <legend>Answered by</legend>
        <label>
          <input
            type="radio"
            name="fork-driver"
            checked={d.driver === 'real'}
            onChange={() => st.editForkDraft({ driver: 'real' })}
          />{' '}
          The capsule&apos;s driver, as configured now
        </label>
        <label>
          <input
            type="radio"
            name="fork-driver"
            checked={d.driver === 'rehearsal'}
            onChange={() => st.editForkDraft({ driver: 'rehearsal' })}
          />{' '}
          The recording (a rehearsal: no model, no key)
        </label>
      </fieldset>
      <div className="fork-actions">
        <button
          type="submit"
          className="btn btn-primary"
          disabled={d.busy || !d.message.trim() || delegations.some((x) => !x.text.trim())}
        >
          {d.busy ? 'Forking…' : 'Start fork'}
        </button>
        <button type="button" className="btn" onClick={() => st.closeForkForm()} disabled={d.busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
