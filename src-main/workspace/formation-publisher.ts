import { diffFormation, withCapsuleState, type FormationView } from '../../src-shared/contract';
import type { CapsuleStatus, Emit } from './sessions';

// formation.changed as what changed since the view the clients hold: the publisher keeps the last
// view it sent, with the capsule.stateChanged patches sent since folded in as the clients fold
// them, and numbers every change. A workspace opened goes out whole.

export interface FormationPublisher {
  /** Sends what changed since the last view sent (nothing when nothing did); returns the view with its version. */
  publish(view: FormationView): FormationView;
  /** Sends the whole view (a workspace opened); returns it with its version. */
  publishWhole(view: FormationView): FormationView;
  /** A capsule.stateChanged went out: the clients' copy of that capsule has these fields now. */
  stateSent(status: CapsuleStatus): void;
}

export function createFormationPublisher(emit: Emit): FormationPublisher {
  let sent: FormationView | undefined;
  let version = 0;
  return {
    publish(view) {
      const change = sent && sent.dir === view.dir ? diffFormation(sent, view, version + 1) : undefined;
      if (sent && sent.dir === view.dir && !change) return { ...view, version };
      if (!change) return this.publishWhole(view);
      version = change.version;
      sent = view;
      emit('formation.changed', change);
      return { ...view, version };
    },
    publishWhole(view) {
      version++;
      sent = view;
      const whole = { ...view, version };
      emit('formation.changed', { version, dir: view.dir, full: whole });
      return whole;
    },
    stateSent(s) {
      if (!sent?.capsules.some((c) => c.id === s.id)) return;
      // The same fields the renderer's fold overwrites (withCapsuleState: absent ones become undefined there too).
      sent = { ...sent, capsules: sent.capsules.map((c) => (c.id === s.id ? withCapsuleState(c, s) : c)) };
    },
  };
}
