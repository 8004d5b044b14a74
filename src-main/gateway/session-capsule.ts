import { agentCardOf } from '../door';
import type { Session } from '../runtime/api';
import type { ResolvedCapsule } from './types';

/** A session of this process as the gateway serves it; its own tasks are answered by its door. */
export function sessionCapsule(s: Session): ResolvedCapsule {
  return {
    url: s.url,
    card: agentCardOf(s),
    accepts: s.manifest.accepts,
    responds: s.manifest.responds,
    session: s,
    doorOf: (taskId) => (s.getTask(taskId, 0) ? s.url : undefined),
  };
}
