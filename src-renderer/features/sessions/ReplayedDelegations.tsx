import { MAX_FORK_MESSAGE_CHARS } from '../../../src-shared/contract';
import { useStudio, type ForkDelegationDraft, type ForkDraft } from '../../store';

/**
 * The delegations the fork's replayed turns make, each with the text it sends: the recorded one,
 * or the one edited here (the worker gets the edit). A delegation a breakpoint edited in the
 * recorded run says what the model had written.
 */
export function ReplayedDelegations({ draft, delegations }: { draft: ForkDraft; delegations: ForkDelegationDraft[] }) {
  const edit = useStudio.getState().editForkDraft;
  if (draft.delegations === null)
    return <p className="muted fork-note">Reading the delegations the replayed turns make…</p>;
  if (!delegations.length) return <p className="muted fork-note">The replayed turns make no delegation.</p>;
  return (
    <fieldset className="fork-field fork-delegations">
      <legend>What the replayed delegations send</legend>
      {delegations.map((x) => {
        const name = `Turn ${x.turn} delegation to ${x.to}`;
        return (
          <label key={x.callId} className="fork-delegation">
            <span>
              Turn {x.turn} → <strong>{x.to}</strong>
              {x.text !== x.recorded ? <em className="fork-edited">edited</em> : null}
              {x.modelText !== undefined ? (
                <span className="muted" title={`The model wrote: ${x.modelText}`}>
                  {' '}
                  · edited at a breakpoint in the recorded run
                </span>
              ) : null}
            </span>
            <textarea
              className="input fork-message fork-delegation-text"
              rows={2}
              maxLength={MAX_FORK_MESSAGE_CHARS}
              value={x.text}
              aria-label={name}
              onChange={(e) => edit({ delegation: { callId: x.callId, text: e.target.value } })}
            />
          </label>
        );
      })}
    </fieldset>
  );
}
