import type { EventPayload } from './events';
import type { CapsuleView } from './types';

// What a capsule.stateChanged changes in a capsule's record, in one place: the core's formation
// publisher (the view its clients hold), the runtimes service (an attached runtime's view) and the
// page's store all fold it with this. A field the event leaves out is cleared (JSON has no undefined).

/** The capsule after a capsule.stateChanged (a new object; the old one is left as it was). */
export function withCapsuleState(c: CapsuleView, p: EventPayload<'capsule.stateChanged'>): CapsuleView {
  return {
    ...c,
    state: p.state,
    url: p.url,
    sessionId: p.sessionId,
    queued: p.queued,
    tasks: p.tasks,
    running: p.running,
    error: p.error,
    lastTask: p.lastTask,
  };
}
