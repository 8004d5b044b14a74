import Fastify, { type FastifyInstance } from 'fastify';
import type { Session } from '../runtime/api';
import { cardPlugin } from './card';
import { BODY_LIMIT, jsonRpcPlugin } from './jsonrpc';
import { DOOR_LIMITS, doorLimits, type DoorLimits } from './limits';
import { liveStreamsPlugin } from './stream'; // issue 7

// The door of one session: A2A 1.0 JSON-RPC and the agent card, one fastify plugin per concern.
// Tests use inject(); only the runtime calls listen().

export interface DoorDeps {
  session: Session;
  /** Overrides DOOR_LIMITS (tests). */
  limits?: Partial<DoorLimits>;
}

export function buildDoor(deps: DoorDeps): FastifyInstance {
  const limits = doorLimits({ ...DOOR_LIMITS, ...deps.limits }, (e) => deps.session.trace.append(e));
  const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT, routerOptions: { ignoreTrailingSlash: true }, ...limits.options });
  limits.attach(app);
  void app.register(cardPlugin, { session: deps.session });
  void app.register(jsonRpcPlugin, { session: deps.session });
  void app.register(liveStreamsPlugin, { session: deps.session }); // issue 7: open streams close before the door does
  return app;
}

export { registerMethod, findMethod, REPLIED, doorCapabilities, type MethodContext, type MethodHandler } from './methods';
export { buildAgentCard, agentCardOf } from './card';
export { sendError, BODY_LIMIT } from './jsonrpc';
export { DOOR_LIMITS, type DoorLimits } from './limits';
export { MAX_PARAMS_DEPTH } from './depth';
export { acceptFromDoor } from './methods/send';
export { parseParams, sendMessageParams, taskIdParams } from './params';
