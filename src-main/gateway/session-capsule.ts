import { agentCardOf } from '../door';
import type { Session } from '../runtime/api';
import type { ResolvedCapsule } from './types';

/** A session of this process as the gateway serves it: called in process, and the tasks it holds answered by it. */
export function sessionCapsule(s: Session): ResolvedCapsule {
  return {
    url: s.url,
    card: agentCardOf(s),
    accepts: s.manifest.accepts,
    responds: s.manifest.responds,
    session: s,
    sessionOf: (taskId) => (s.taskState(taskId) ? s : undefined),
  };
}
