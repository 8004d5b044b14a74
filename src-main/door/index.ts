import Fastify, { type FastifyInstance } from 'fastify';
import type { Session } from '../runtime/api';
import type { AgentCard } from '../../src-shared/a2a';
import { agentCardOf as cardOf, cardPlugin } from './card';
import type { MethodTable } from './methods';
import { doorMethods } from './methods/index';
import { BODY_LIMIT, jsonRpcPlugin } from './jsonrpc';
import { liveStreamsPlugin } from './stream'; // issue 7

// The door of one session: A2A 1.0 JSON-RPC and the agent card, one fastify plugin per concern.
// Tests use inject(); only the runtime calls listen().

export interface DoorDeps {
  session: Session;
  /** The methods this door serves (all of doorMethods unless given); any other is -32601. */
  methods?: MethodTable;
}

export function buildDoor(deps: DoorDeps): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT, routerOptions: { ignoreTrailingSlash: true } });
  const methods = deps.methods ?? doorMethods;
  void app.register(cardPlugin, { session: deps.session, methods });
  void app.register(jsonRpcPlugin, { session: deps.session, methods });
  void app.register(liveStreamsPlugin, { session: deps.session }); // issue 7: open streams close before the door does
  return app;
}

export { REPLIED, pickMethods, capabilitiesOf, type MethodContext, type MethodHandler, type MethodTable } from './methods';
export { doorMethods } from './methods/index';
export { buildAgentCard } from './card';

/** The card of a session's door; it serves the whole table unless told which part. */
export const agentCardOf = (session: Session, methods: MethodTable = doorMethods): AgentCard => cardOf(session, methods);
export { etagOf, matchesIfNoneMatch, sendCard } from './card-etag';
export { sendError, BODY_LIMIT } from './jsonrpc';
export { acceptFromDoor } from './methods/send';
export { callDoor, door, DoorError, type DoorCallOptions, type DoorErrorKind, type SendParams, type StopAnswer } from './client';
export { checkAccepts } from './accepts';
export { parseParams, sendMessageParams, taskIdParams } from './params';
