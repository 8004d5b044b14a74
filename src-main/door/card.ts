import type { FastifyPluginAsync } from 'fastify';
import { DOOR_EXTENSION_URI, type AgentCard } from '../../src-shared/a2a';
import { servedMethods, type A2AMethod } from '../../src-shared/manifest';
import type { Session } from '../runtime/api';
import { doorCapabilities } from './methods';
import { FRAMES_EXTENSION } from './stream/frames'; // issue 7

// The agent card, built from the manifest only (never a secret), served at the well-known path.
// Its capabilities say what the door serves: exports.methods can switch streaming, push configs
// and the extended card off. An output contract (responds) makes JSON the answer's first mode.

/** Which optional capabilities the manifest's exports.methods leave on (all, without a list). */
export function servedCapabilities(methods: readonly string[] | undefined) {
  const served = servedMethods(methods);
  const any = (...names: A2AMethod[]) => !served || names.some((n) => served.has(n));
  return {
    streaming: any('SendStreamingMessage', 'SubscribeToTask'),
    pushNotifications: any('CreateTaskPushNotificationConfig', 'GetTaskPushNotificationConfig', 'ListTaskPushNotificationConfigs', 'DeleteTaskPushNotificationConfig'),
    extendedAgentCard: any('GetExtendedAgentCard'),
  };
}

export function buildAgentCard(session: Session): AgentCard {
  const m = session.manifest;
  const description = m.description ?? `${m.name} capsule`;
  const outputModes = m.responds ? ['application/json', 'text/plain'] : ['text/plain'];
  const modes = m.responds ? { outputModes } : {};
  const skills = m.skills?.length
    ? m.skills.map((s) => ({ id: s.id, name: s.name, description: s.description || description, tags: s.tags, ...(s.examples ? { examples: s.examples } : {}), ...modes }))
    : [{ id: m.name, name: m.name, description, tags: ['capsule'], ...modes }];
  const on = servedCapabilities(m.exports?.methods);
  const streaming = doorCapabilities.streaming && on.streaming;
  return {
    name: m.name,
    description,
    version: m.version,
    supportedInterfaces: [{ url: session.url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: {
      streaming,
      pushNotifications: doorCapabilities.pushNotifications && on.pushNotifications,
      extendedAgentCard: on.extendedAgentCard,
      extensions: [
        {
          uri: DOOR_EXTENSION_URI,
          description: "The capsule door's own methods: murmur.StopSession cancels every task and reports what is left running; murmur.WatchSession streams the session trace.",
          params: { methods: ['murmur.StopSession', 'murmur.WatchSession'] },
        },
        ...(streaming ? [FRAMES_EXTENSION] : []), // issue 7
      ],
    },
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: outputModes,
    skills,
  };
}

const cards = new WeakMap<Session, { key: string; json: string; card: AgentCard }>();

/** The card of a session, cached while its url and capabilities stay the same. */
export function agentCardOf(session: Session): AgentCard {
  return cached(session).card;
}

function cached(session: Session) {
  const key = `${session.url}|${doorCapabilities.streaming}|${doorCapabilities.pushNotifications}`;
  let c = cards.get(session);
  if (!c || c.key !== key) {
    const card = buildAgentCard(session);
    c = { key, card, json: JSON.stringify(card) };
    cards.set(session, c);
  }
  return c;
}

export const cardPlugin: FastifyPluginAsync<{ session: Session }> = async (app, { session }) => {
  const serve = async (_req: unknown, reply: import('fastify').FastifyReply) =>
    reply.header('content-type', 'application/json').header('cache-control', 'max-age=60').send(cached(session).json);
  app.get('/.well-known/agent-card.json', serve);
  app.get('/.well-known/agent.json', serve);
};
