import { useStudio } from '../store';
import { Dialog } from '../ui/Dialog';
import { STOP_ALL, STOP_SESSION } from '../ui/actionWords';

// Stop session and Stop all end sessions, and with them every task still running (a long model
// call, a task waiting for an answer or paused at a breakpoint). When there are any, the user is
// told how many before anything ends.

const tasks = (n: number) => (n === 1 ? '1 task is' : `${n} tasks are`);

/** How the tasks stand, as the node and the console tell them: a paused one is paused, not running. */
function standing(running: number, paused: number, where: string): string {
  if (paused === 0) return `${tasks(running)} still running${where}.`;
  if (paused === running) return `${tasks(running)} paused at a breakpoint${where}.`;
  return `${tasks(running)} still running${where}, ${paused} of them paused at a breakpoint.`;
}

export function StopConfirmDialog() {
  const ask = useStudio((s) => s.stopAsk);
  const name = useStudio((s) => (ask?.capsuleId ? (s.capsules[ask.capsuleId]?.name ?? ask.capsuleId) : undefined));
  if (!ask) return null;
  const answer = useStudio.getState().answerStop;
  const action = name ? STOP_SESSION : STOP_ALL;
  return (
    <Dialog title={name ? `Stop ${name}?` : 'Stop every capsule?'} onClose={() => void answer(false)}>
      <p>
        {standing(ask.running, ask.paused, name ? ` in ${name}` : '')} {action} cancels{' '}
        {ask.running === 1 ? 'it' : 'them'} and ends {name ? 'the session' : 'every session'}.
      </p>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={() => void answer(false)}>
          Keep running
        </button>
        <button type="button" className="btn btn-danger" onClick={() => void answer(true)}>
          {action}
        </button>
      </div>
    </Dialog>
  );
}
