import { CoreError } from '../../src-shared/contract';
import type { Session } from '../runtime';

// "Restart when the current task ends": the session is left to finish what it is doing (the
// running task and the queue) before it is ended and launched again from the saved manifest.

/** How long a restart waits for the session to go idle before giving up (and saying so). */
export const RESTART_WAIT_MS = 10 * 60_000;

const idle = (s: Session) => {
  const st = s.status();
  return st.running === null && st.queued === 0;
};

export function waitUntilIdle(session: Session, timeoutMs = RESTART_WAIT_MS): Promise<void> {
  if (idle(session)) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const done = (err?: Error) => {
      off();
      clearTimeout(timer);
      clearInterval(poll);
      if (err) reject(err);
      else resolve();
    };
    const check = () => idle(session) && done();
    // Task events say when something ended; the poll covers a state that settles after the event.
    const off = session.onTaskEvent(() => setTimeout(check, 0));
    const poll = setInterval(check, 250);
    const timer = setTimeout(
      () =>
        done(
          new CoreError(
            'conflict',
            `${session.manifest.name} was still busy after ${timeoutMs / 60_000} minutes; restart it now, or wait and try again.`,
          ),
        ),
      timeoutMs,
    );
    void session.ended.then(() => done());
  });
}
