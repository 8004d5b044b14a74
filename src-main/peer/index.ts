// The outgoing side of A2A: one client for every request a capsule makes on a model's behalf,
// with the network policy checked before any connection, and task following for delegations.
export {
  createPeerClient,
  type PeerClient,
  type PeerClientOptions,
  type PeerCallOptions,
  type SendMessageParams,
  type SendMessageResult,
} from './client';
export { PeerError, PolicyRefusal, type PeerFailure } from './errors';
export { checkTarget, connectUrls, type PolicyVerdict } from './policy';
export { followTask, responseText, type FollowOptions } from './follow';
export { formatTraceparent, newSpanId, traceIdForTask, traceIdOf } from './traceparent';
export { fetchGuarded, type GuardedRequest, type GuardOptions } from './guarded-fetch';
export {
  decodeAnswer,
  METHODS_03_TO_10,
  METHODS_10_TO_03,
  readRequest,
  requestOf,
  type DecodedAnswer,
} from './jsonrpc';
