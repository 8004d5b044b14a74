import Fastify, { type FastifyInstance } from 'fastify';
import type { Session } from '../runtime/api';
import type { AgentCard } from '../../src-shared/a2a';
import { agentCardOf as cardOf, cardPlugin } from './card';
import { servedPart, type MethodTable } from './methods';
import { tableOf } from './call';
import { BODY_LIMIT, jsonRpcPlugin } from './jsonrpc';
import { DOOR_LIMITS, doorLimits, type DoorLimits } from './limits';
import { liveStreamsPlugin } from './stream';
import { existingPushOf } from './push';

// The door of one session: A2A 1.0 JSON-RPC and the agent card, one fastify plugin per concern.
// Tests use inject(); only the runtime calls listen().

export interface DoorDeps {
  session: Session;
  /** The methods this door serves (all of doorMethods unless given, narrowed by the manifest's exports.methods); any other is -32601. */
  methods?: MethodTable;
  /** Overrides DOOR_LIMITS (tests). */
  limits?: Partial<DoorLimits>;
}

export function buildDoor(deps: DoorDeps): FastifyInstance {
  const limits = doorLimits({ ...DOOR_LIMITS, ...deps.limits }, (e) => deps.session.trace.append(e));
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true },
    ...limits.options,
  });
  limits.attach(app);
  const methods = deps.methods
    ? servedPart(deps.methods, deps.session.manifest.exports?.methods)
    : tableOf(deps.session);
  void app.register(cardPlugin, { session: deps.session, methods });
  void app.register(jsonRpcPlugin, { session: deps.session, methods });
  void app.register(liveStreamsPlugin, { session: deps.session }); // open streams close before the door does
  // The push configs' last change reaches the records folder before the session ends.
  app.addHook('onClose', async () => existingPushOf(deps.session)?.store.flush());
  return app;
}

export {
  REPLIED,
  pickMethods,
  capabilitiesOf,
  servedPart,
  type MethodContext,
  type MethodHandler,
  type MethodTable,
} from './methods';
export { doorMethods } from './methods/index';
export { buildAgentCard } from './card';

/** The card of a session's door; it serves the table exports.methods leaves unless told which part. */
export const agentCardOf = (session: Session, methods?: MethodTable): AgentCard =>
  cardOf(session, methods ?? tableOf(session));
export { etagOf, matchesIfNoneMatch, sendCard } from './card-etag';
export { sendError, BODY_LIMIT } from './jsonrpc';
export { DOOR_LIMITS, type DoorLimits } from './limits';
export { busyBody, DOOR_BUSY_CODE } from './turn-away';
export { MAX_PARAMS_DEPTH } from './depth';
export { acceptFromDoor } from './methods/send';
export { callChecked, callSession } from './call';
export { bodyTooLarge, checkRequest, errorText, resultAnswer } from './envelope';
export {
  callDoor,
  door,
  DoorError,
  type DoorCallOptions,
  type DoorErrorKind,
  type SendParams,
  type StopAnswer,
} from './client';
export { acceptsProblems, checkAccepts } from './accepts';
export { parseParams, sendMessageParams, taskIdParams } from './params';
