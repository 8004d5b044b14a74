import { cancelLongCommand, useLongCommand } from '../store';
import './longCommand.css';

/** While a long command waits (a test run, a publish, a fork): what runs, and how to stop it. */
export function LongCommandBar() {
  const long = useLongCommand();
  if (!long) return null;
  return (
    <div className="long-command" role="status" aria-label="Long command">
      <span className="long-command-spinner" aria-hidden="true" />
      <span>{long.label}…</span>
      <kbd>Esc</kbd>
      <span className="muted">to cancel</span>
      <button type="button" className="btn btn-small" onClick={() => cancelLongCommand()}>
        Cancel
      </button>
    </div>
  );
}
