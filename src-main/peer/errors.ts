// Errors of the outgoing A2A client. Both carry a short `reason` the delegate tool hands to the
// model as its tool error, so a refusal reads the same in the conversation, the trace and a test.

/** The network policy refused a place before any connection was made. */
export class PolicyRefusal extends Error {
  readonly reason = 'network_refused';
  constructor(
    readonly url: string,
    readonly detail: string,
  ) {
    super(`network_refused: ${url} is not in capabilities.network.allow (${detail})`);
  }
}

/** Why a peer request failed, in words a model and a test can match. */
export type PeerFailure =
  | 'peer_not_accepted'
  | 'connection_refused'
  | 'unreachable'
  | 'timeout'
  | 'http_error'
  | 'bad_response'
  | 'rpc_error'
  | 'too_many_redirects';

/** A peer request that reached (or tried to reach) an allowed place and failed. */
export class PeerError extends Error {
  constructor(
    readonly reason: PeerFailure,
    message: string,
    readonly detail: { url: string; status?: number; code?: number; data?: unknown } = { url: '' },
  ) {
    super(message.startsWith(reason) ? message : `${reason}: ${message}`);
  }
}
