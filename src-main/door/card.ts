import type { FastifyPluginAsync } from 'fastify';
import { DOOR_EXTENSION_URI, type AgentCard } from '../../src-shared/a2a';
import type { Session } from '../runtime/api';
import { etagOf, sendCard } from './card-etag';
import { capabilitiesOf, type MethodTable } from './methods';
import { FRAMES_EXTENSION } from './stream/frames';

// The agent card, built from the manifest only (never a secret), served at the well-known path.
// Its capabilities follow the method table of the door that serves it (which exports.methods
// narrows). An output contract (responds) makes JSON the answer's first output mode.

const DOOR_EXTENSION_METHODS = ['murmur.StopSession', 'murmur.EndSession', 'murmur.WatchSession'];

export function buildAgentCard(session: Session, methods: MethodTable): AgentCard {
  const m = session.manifest;
  const caps = capabilitiesOf(methods);
  const description = m.description ?? `${m.name} capsule`;
  const outputModes = m.responds ? ['application/json', 'text/plain'] : ['text/plain'];
  const modes = m.responds ? { outputModes } : {};
  const skills = m.skills?.length
    ? m.skills.map((s) => ({
        id: s.id,
        name: s.name,
        description: s.description || description,
        tags: s.tags,
        ...(s.examples ? { examples: s.examples } : {}),
        ...modes,
      }))
    : [{ id: m.name, name: m.name, description, tags: ['capsule'], ...modes }];
  return {
    name: m.name,
    description,
    version: m.version,
    supportedInterfaces: [{ url: session.url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: {
      streaming: caps.streaming,
      pushNotifications: caps.pushNotifications,
      extendedAgentCard: caps.extendedAgentCard,
      extensions: [
        {
          uri: DOOR_EXTENSION_URI,
          description:
            "The capsule door's own methods: murmur.StopSession cancels every task and reports what is left running; murmur.EndSession does the same, then ends the session; murmur.WatchSession streams the session trace.",
          params: { methods: DOOR_EXTENSION_METHODS.filter((n) => Object.hasOwn(methods, n)) },
        },
        ...(caps.streaming ? [FRAMES_EXTENSION] : []),
      ],
    },
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: outputModes,
    skills,
  };
}

const cards = new WeakMap<
  Session,
  { key: string; methods: MethodTable; json: string; etag: string; modified: string; card: AgentCard }
>();

/** The card of a session served with `methods`, cached while its url and table stay the same. */
export function agentCardOf(session: Session, methods: MethodTable): AgentCard {
  return cached(session, methods).card;
}

function cached(session: Session, methods: MethodTable) {
  let c = cards.get(session);
  if (!c || c.key !== session.url || c.methods !== methods) {
    const card = buildAgentCard(session, methods);
    const json = JSON.stringify(card);
    c = { key: session.url, methods, card, json, etag: etagOf(json), modified: new Date().toUTCString() };
    cards.set(session, c);
  }
  return c;
}

export const cardPlugin: FastifyPluginAsync<{ session: Session; methods: MethodTable }> = async (
  app,
  { session, methods },
) => {
  // The card only changes with the door's address or method table: a minute's caching is safe,
  // and a revalidation with If-None-Match costs a 304 without a body.
  const serve = async (req: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => {
    const c = cached(session, methods);
    return sendCard(req, reply, c.json, 'max-age=60', c.etag, c.modified);
  };
  app.get('/.well-known/agent-card.json', serve);
  app.get('/.well-known/agent.json', serve);
};
