import type { Manifest } from '../../src-shared/manifest';
import type { TraceWriter } from '../trace';
import type { SessionPolicy } from './api';

// A running session's policy changes in place: the manifest object is shared by the session's
// tools (delegate_task reads its allow list at each delegation) and its door (which reads the peer
// export at each request), so writing the two fields here is what makes the change live. The trace
// records it, so a delegation refused a minute later can be explained.

type Writable = { -readonly [K in keyof Manifest]: Manifest[K] };

/** The policy a manifest states. */
export function policyOf(m: Pick<Manifest, 'capabilities' | 'exports'>): SessionPolicy {
  return {
    allow: [...(m.capabilities?.network?.allow ?? [])],
    acceptPeerTasks: m.exports?.peer_tasks?.accept === true,
  };
}

export function samePolicy(a: SessionPolicy, b: SessionPolicy): boolean {
  return (
    a.acceptPeerTasks === b.acceptPeerTasks &&
    a.allow.length === b.allow.length &&
    a.allow.every((e, i) => e === b.allow[i])
  );
}

export function applyPolicy(manifest: Manifest, policy: SessionPolicy, trace: Pick<TraceWriter, 'append'>): void {
  if (samePolicy(policyOf(manifest), policy)) return;
  const m = manifest as Writable;
  const capabilities = m.capabilities ?? {};
  m.capabilities = {
    ...capabilities,
    network: { ...capabilities.network, allow: [...policy.allow] },
  } as Manifest['capabilities'];
  m.exports = {
    ...m.exports,
    peer_tasks: { ...m.exports?.peer_tasks, accept: policy.acceptPeerTasks },
  } as Manifest['exports'];
  trace.append({ event_type: 'policy_changed', allow: [...policy.allow], accept_peer_tasks: policy.acceptPeerTasks });
}
