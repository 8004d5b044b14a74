import { join } from 'node:path';
import type { Session } from '../../runtime/api';
import { createPushDelivery, type PushDelivery, type PushTiming } from './delivery';
import { createPushStore, PUSH_CONFIGS_FILE, type PushStore } from './store';

// Push for one session: its configs (kept in session.pushConfigs when the session offers the map,
// persisted in its records folder) and one listener on the session's task events that hands every
// update of a task with configs to delivery. Events of tasks without configs cost one map lookup.

export interface SessionPush {
  store: PushStore;
  delivery: PushDelivery;
  dispose(): void;
}

export type PushedSession = Pick<Session, 'workdir' | 'onTaskEvent' | 'pushConfigs'> & {
  trace: Pick<Session['trace'], 'append'>;
};

export function attachPush(session: PushedSession, timing?: Partial<PushTiming>): SessionPush {
  const store = createPushStore({ file: join(session.workdir, PUSH_CONFIGS_FILE), map: session.pushConfigs });
  const delivery = createPushDelivery({ store, trace: session.trace, timing });
  const off = session.onTaskEvent((taskId, event) => delivery.deliver(taskId, event));
  return {
    store,
    delivery,
    dispose() {
      off();
      delivery.dispose();
      store.dispose();
    },
  };
}
