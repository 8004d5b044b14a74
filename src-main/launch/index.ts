import { buildDoor } from '../door';
import { startSession as startServedSession, type Session, type SessionOptions } from '../runtime';

// The one place a session meets its door. The runtime runs the session and defines what it
// offers (runtime/api.ts); the door serves that over A2A; this launcher, above both, composes
// them, so neither of the two imports the other's upper half. The CLI, the Studio core and the
// tests start sessions here; sub-capsules a delegation starts get a door the same way.

export function startSession(opts: SessionOptions): Promise<Session> {
  return startServedSession(opts, (session) => buildDoor({ session }));
}
