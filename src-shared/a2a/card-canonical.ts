// The canonical form of an agent card that a signature covers (A2A 1.0 §8.4.1): the card read as
// the proto AgentCard message (fields the message does not have are dropped), written back as
// ProtoJSON without default values (false, 0, "", empty lists and maps; proto `optional` fields
// keep an explicit value), then with every empty string, list and object removed, as the official
// SDKs do before RFC 8785 canonicalisation. Signing the card exactly as served would make a
// signature that no other implementation verifies, since they all sign this form.

type Kind =
  | 'string'
  | 'bool'
  /** proto `optional bool`: an explicit false is kept. */
  | 'optBool'
  | 'strings'
  /** google.protobuf.Struct: any JSON object, kept as it is. */
  | 'struct'
  | 'stringMap'
  | { msg: Fields }
  | { list: Fields }
  | { map: Fields }
  | { oneof: [string, Fields][] };
type Fields = Record<string, Kind>;

const str = 'string' as const;
const strings = 'strings' as const;
const flow = (names: string[]): Fields => ({ ...Object.fromEntries(names.map((n) => [n, str])), scopes: 'stringMap' });

const StringList: Fields = { list: strings };
const SecurityRequirement: Fields = { schemes: { map: StringList } };
const OAuthFlows: Kind = {
  oneof: [
    ['authorizationCode', { ...flow(['authorizationUrl', 'tokenUrl', 'refreshUrl']), pkceRequired: 'bool' }],
    ['clientCredentials', flow(['tokenUrl', 'refreshUrl'])],
    ['implicit', flow(['authorizationUrl', 'refreshUrl'])],
    ['password', flow(['tokenUrl', 'refreshUrl'])],
    ['deviceCode', flow(['deviceAuthorizationUrl', 'tokenUrl', 'refreshUrl'])],
  ],
};
const SecurityScheme: Kind = {
  oneof: [
    ['apiKeySecurityScheme', { description: str, location: str, name: str }],
    ['httpAuthSecurityScheme', { description: str, scheme: str, bearerFormat: str }],
    ['oauth2SecurityScheme', { description: str, flows: { msg: { flows: OAuthFlows } }, oauth2MetadataUrl: str }],
    ['openIdConnectSecurityScheme', { description: str, openIdConnectUrl: str }],
    ['mtlsSecurityScheme', { description: str }],
  ],
};

/** The A2A 1.0 AgentCard message, by ProtoJSON field name (proto `lf.a2a.v1`). */
export const AGENT_CARD_FIELDS: Fields = {
  name: str,
  description: str,
  supportedInterfaces: { list: { url: str, protocolBinding: str, tenant: str, protocolVersion: str } },
  provider: { msg: { url: str, organization: str } },
  version: str,
  documentationUrl: str,
  capabilities: {
    msg: {
      streaming: 'optBool',
      pushNotifications: 'optBool',
      extensions: { list: { uri: str, description: str, required: 'bool', params: 'struct' } },
      extendedAgentCard: 'optBool',
    },
  },
  securitySchemes: { map: { scheme: SecurityScheme } },
  securityRequirements: { list: SecurityRequirement },
  defaultInputModes: strings,
  defaultOutputModes: strings,
  skills: {
    list: {
      id: str,
      name: str,
      description: str,
      tags: strings,
      examples: strings,
      inputModes: strings,
      outputModes: strings,
      securityRequirements: { list: SecurityRequirement },
    },
  },
  signatures: { list: { protected: str, signature: str, header: 'struct' } },
  iconUrl: str,
};

type Json = unknown;
const isSet = (v: unknown) => v !== null && v !== undefined;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A field as ProtoJSON parsers read it: the JSON name, else the original snake_case name. */
function read(obj: Record<string, unknown>, name: string, kind: Kind): unknown {
  const accepts = (v: unknown) =>
    kind === 'strings' || (typeof kind === 'object' && 'list' in kind) ? Array.isArray(v) : isSet(v);
  if (accepts(obj[name])) return obj[name];
  const alt = snake(name);
  return alt !== name && accepts(obj[alt]) ? obj[alt] : undefined;
}

/** One value of a kind, written back without defaults; undefined when it would be left out. */
function write(kind: Kind, v: unknown): Json {
  if (kind === 'string') return isSet(v) && String(v) !== '' ? String(v) : undefined;
  if (kind === 'bool') return isSet(v) && Boolean(v) ? true : undefined;
  if (kind === 'optBool') return isSet(v) ? Boolean(v) : undefined;
  if (kind === 'strings') return Array.isArray(v) && v.length ? v.map(String) : undefined;
  if (kind === 'struct') return isObject(v) ? v : undefined;
  if (kind === 'stringMap')
    return isObject(v) && Object.keys(v).length
      ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)]))
      : undefined;
  if ('msg' in kind) return isSet(v) ? message(kind.msg, isObject(v) ? v : {}) : undefined;
  if ('list' in kind)
    return Array.isArray(v) && v.length ? v.map((x) => message(kind.list, isObject(x) ? x : {})) : undefined;
  if ('map' in kind)
    return isObject(v) && Object.keys(v).length
      ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, message(kind.map, isObject(x) ? x : {})]))
      : undefined;
  return undefined; // a oneof is written by its parent message
}

function message(fields: Fields, obj: Record<string, unknown>): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [name, kind] of Object.entries(fields)) {
    if (typeof kind === 'object' && 'oneof' in kind) {
      // The first member set wins, the others are not part of the message.
      for (const [member, memberFields] of kind.oneof) {
        const v = read(obj, member, { msg: memberFields });
        if (v !== undefined) {
          out[member] = message(memberFields, isObject(v) ? v : {});
          break;
        }
      }
      continue;
    }
    const v = write(kind, read(obj, name, kind));
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/** Removes empty strings, nulls, empty lists and empty objects, recursively (as both SDKs do). */
function dropEmpty(v: Json): Json {
  if (v === '' || v === null || v === undefined) return undefined;
  if (Array.isArray(v)) {
    const list = v.map(dropEmpty).filter((x) => x !== undefined);
    return list.length ? list : undefined;
  }
  if (isObject(v)) {
    const entries = Object.entries(v)
      .map(([k, x]) => [k, dropEmpty(x)] as const)
      .filter(([, x]) => x !== undefined);
    return entries.length ? Object.fromEntries(entries) : undefined;
  }
  return v;
}

/** The object a card signature covers: the card as an AgentCard message, without `signatures` and defaults. */
export function canonicalCard(card: unknown): Record<string, Json> {
  const { signatures: _drop, ...fields } = message(AGENT_CARD_FIELDS, isObject(card) ? card : {});
  return (dropEmpty(fields) as Record<string, Json> | undefined) ?? {};
}
