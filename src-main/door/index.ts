import Fastify, { type FastifyInstance } from 'fastify';
import type { Session } from '../runtime/api';
import { cardPlugin } from './card';
import { BODY_LIMIT, jsonRpcPlugin } from './jsonrpc';
import { liveStreamsPlugin } from './stream'; // issue 7

// The door of one session: A2A 1.0 JSON-RPC and the agent card, one fastify plugin per concern.
// Tests use inject(); only the runtime calls listen().

export interface DoorDeps {
  session: Session;
}

export function buildDoor(deps: DoorDeps): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT, routerOptions: { ignoreTrailingSlash: true } });
  void app.register(cardPlugin, { session: deps.session });
  void app.register(jsonRpcPlugin, { session: deps.session });
  void app.register(liveStreamsPlugin, { session: deps.session }); // issue 7: open streams close before the door does
  return app;
}

export { registerMethod, findMethod, REPLIED, doorCapabilities, type MethodContext, type MethodHandler } from './methods';
export { buildAgentCard, agentCardOf } from './card';
export { sendError, BODY_LIMIT } from './jsonrpc';
export { acceptFromDoor } from './methods/send';
export { callDoor, door, DoorError, type DoorCallOptions, type DoorErrorKind, type SendParams, type StopAnswer } from './client';
export { parseParams, sendMessageParams, taskIdParams } from './params';
