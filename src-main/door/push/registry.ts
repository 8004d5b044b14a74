import type { Session } from '../../runtime/api';
import type { PushTiming } from './delivery';
import { attachPush, type SessionPush } from './session-push';

// One push (configs + delivery + task-event listener) per session, made on the first push call:
// a session nobody registered a webhook with pays nothing. When the session ends, deliveries
// already queued (the terminal update, typically) are left to finish, then everything is freed.

const bySession = new WeakMap<Session, SessionPush>();
const timings = new WeakMap<Session, Partial<PushTiming>>();

/** Sets a session's push timing (tests shorten it); call before its first push config. */
export function configurePush(session: Session, timing: Partial<PushTiming>): void {
  timings.set(session, timing);
}

export function pushOf(session: Session): SessionPush {
  let push = bySession.get(session);
  if (!push) {
    const made = attachPush(session, timings.get(session));
    push = made;
    bySession.set(session, made);
    void session.ended.then(() => made.delivery.idle().then(() => made.dispose()));
  }
  return push;
}

/** The session's push if it has one (tests, shutdown). */
export const existingPushOf = (session: Session): SessionPush | undefined => bySession.get(session);
