import { DOOR_EXTENSION_URI, type AgentCard } from '../../src-shared/a2a';

// The cards the gateway serves. A capsule's card is its door's card with the gateway as its only
// interface, the bearer scheme declared, the door's own extension methods left out (they are not
// forwarded), and the `accepts` contract shown; compat03 adds a 0.3 interface and a 0.3-shaped card.

/** Extension carrying a capsule's input contract: params.schema is the JSON Schema of the data part. */
export const ACCEPTS_EXTENSION_URI = 'https://capsule.studio/a2a/ext/accepts/v1';

/**
 * Extension on the gateway's index card listing the capsules this caller may call: params.capsules
 * is a list of {name, description, card, url}. (A card field of its own would break strict A2A
 * parsers, which reject fields the AgentCard message does not have.)
 */
export const GATEWAY_INDEX_EXTENSION_URI = 'https://capsule.studio/a2a/ext/gateway-index/v1';

export const BEARER_SCHEMES = {
  bearer: {
    httpAuthSecurityScheme: { scheme: 'Bearer', description: 'The token shown once when the capsule was exposed.' },
  },
};
export const BEARER_REQUIREMENTS = [{ schemes: { bearer: { list: [] as string[] } } }];

export interface CapsuleCardInput {
  /** The door's card. */
  card: AgentCard;
  /** The capsule's JSON-RPC URL on the gateway. */
  url: string;
  accepts?: Record<string, unknown>;
  compat03: boolean;
}

export function capsuleCard({ card, url, accepts, compat03 }: CapsuleCardInput): AgentCard {
  const inputNote = accepts
    ? ' Input: one data part (application/json) matching the JSON Schema in the card extension ' +
      ACCEPTS_EXTENSION_URI +
      '.'
    : '';
  const { signatures: _s, ...rest } = card;
  return {
    ...rest,
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ...(compat03 ? [{ url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' }] : []),
    ],
    capabilities: {
      ...card.capabilities,
      extensions: [
        ...(card.capabilities.extensions ?? []).filter((e) => e.uri !== DOOR_EXTENSION_URI),
        ...(accepts
          ? [
              {
                uri: ACCEPTS_EXTENSION_URI,
                description:
                  'The input contract of this capsule: a task starts only from a message whose first data part matches params.schema (JSON Schema).',
                required: false,
                params: { schema: accepts },
              },
            ]
          : []),
      ],
    },
    securitySchemes: BEARER_SCHEMES,
    securityRequirements: BEARER_REQUIREMENTS,
    skills: card.skills.map((s) =>
      accepts ? { ...s, description: `${s.description}${inputNote}`, inputModes: ['application/json'] } : s,
    ),
  };
}

export interface IndexEntry {
  name: string;
  description: string;
  card: string;
  url: string;
}

/**
 * The gateway's own card at /.well-known/agent-card.json: a valid agent card (one interface and
 * one skill per capsule this caller may call), with each capsule's card URL in the index extension.
 */
export function indexCard(entries: IndexEntry[], origin: string): AgentCard {
  return {
    name: 'Capsule Studio gateway',
    description: entries.length
      ? `Capsules exposed by this Capsule Studio: ${entries.map((e) => e.name).join(', ')}.`
      : 'No capsule is exposed to this caller.',
    version: '1.0.0',
    supportedInterfaces: entries.length
      ? entries.map((e) => ({ url: e.url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }))
      : [{ url: `${origin}/a2a/capsules`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: {
      streaming: true,
      extensions: [
        {
          uri: GATEWAY_INDEX_EXTENSION_URI,
          description:
            "The capsules this caller may call on this gateway: params.capsules lists each one's name, description, card URL and JSON-RPC URL.",
          params: { capsules: entries.map((e) => ({ ...e })) },
        },
      ],
    },
    securitySchemes: BEARER_SCHEMES,
    securityRequirements: BEARER_REQUIREMENTS,
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain'],
    skills: entries.map((e) => ({
      id: e.name,
      name: e.name,
      description: `${e.description} (card: ${e.card})`,
      tags: ['capsule'],
    })),
  };
}

/** The capsules an index card lists (its index extension's params), or [] for any other card. */
export function indexEntriesOf(card: AgentCard): IndexEntry[] {
  const ext = card.capabilities?.extensions?.find((e) => e.uri === GATEWAY_INDEX_EXTENSION_URI);
  const list = (ext?.params as { capsules?: unknown } | undefined)?.capsules;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (e): e is IndexEntry =>
      !!e &&
      typeof e === 'object' &&
      ['name', 'description', 'card', 'url'].every((k) => typeof (e as Record<string, unknown>)[k] === 'string'),
  );
}

/** The A2A 0.3 shape of a capsule card, for callers on 0.3 SDKs (served when compat03 is on). */
export function card03(card: AgentCard, url: string): Record<string, unknown> {
  return {
    protocolVersion: '0.3.0',
    name: card.name,
    description: card.description,
    version: card.version,
    url,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [{ url, transport: 'JSONRPC' }],
    capabilities: { streaming: card.capabilities.streaming ?? false, pushNotifications: false },
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    security: [{ bearer: [] }],
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      tags: s.tags,
      ...(s.inputModes ? { inputModes: s.inputModes } : {}),
    })),
    supportsAuthenticatedExtendedCard: true,
  };
}
