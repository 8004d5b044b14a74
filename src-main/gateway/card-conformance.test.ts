import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as pb from '@a2a-js/sdk';
import { startTestGateway, type TestGateway } from './testing';

// Every card we serve, parsed strictly as an A2A 1.0 AgentCard: a field the proto message does
// not have is an error (strict ProtoJSON parsers refuse the whole card), and so is a missing
// required field or a value of the wrong type. The field set is the official SDK's generated
// proto code (@a2a-js/sdk 1.3, package lf.a2a.v1): each message's fields are the keys its
// fromJSON fills in, so nothing here restates the proto by hand except which fields nest which
// messages and which are REQUIRED (from the spec's AgentCard section).

type Codec = { fromJSON(o: any): object };
type Spec = { codec: Codec; nested?: Record<string, Nested>; required?: string[]; oneof?: Record<string, Spec> };
type Nested = Spec | { list: Spec } | { map: Spec } | 'struct' | 'boolean' | 'string' | 'stringMap';

const flowSpec = (codec: Codec): Spec => ({ codec, nested: { scopes: 'stringMap' } });
const StringList: Spec = { codec: pb.StringList };
const SecurityRequirement: Spec = { codec: pb.SecurityRequirement, nested: { schemes: { map: StringList } } };
const OAuthFlows: Spec = {
  codec: pb.OAuthFlows,
  oneof: {
    authorizationCode: flowSpec(pb.AuthorizationCodeOAuthFlow),
    clientCredentials: flowSpec(pb.ClientCredentialsOAuthFlow),
    implicit: flowSpec(pb.ImplicitOAuthFlow),
    password: flowSpec(pb.PasswordOAuthFlow),
    deviceCode: flowSpec(pb.DeviceCodeOAuthFlow),
  },
};
const SecurityScheme: Spec = {
  codec: pb.SecurityScheme,
  oneof: {
    apiKeySecurityScheme: { codec: pb.APIKeySecurityScheme },
    httpAuthSecurityScheme: { codec: pb.HTTPAuthSecurityScheme },
    oauth2SecurityScheme: { codec: pb.OAuth2SecurityScheme, nested: { flows: OAuthFlows } },
    openIdConnectSecurityScheme: { codec: pb.OpenIdConnectSecurityScheme },
    mtlsSecurityScheme: { codec: pb.MutualTlsSecurityScheme },
  },
};
const AgentCard: Spec = {
  codec: pb.AgentCard,
  required: [
    'name',
    'description',
    'version',
    'supportedInterfaces',
    'capabilities',
    'defaultInputModes',
    'defaultOutputModes',
    'skills',
  ],
  nested: {
    supportedInterfaces: {
      list: { codec: pb.AgentInterface, required: ['url', 'protocolBinding', 'protocolVersion'] },
    },
    provider: { codec: pb.AgentProvider, required: ['url', 'organization'] },
    documentationUrl: 'string',
    iconUrl: 'string',
    capabilities: {
      codec: pb.AgentCapabilities,
      nested: {
        streaming: 'boolean',
        pushNotifications: 'boolean',
        extendedAgentCard: 'boolean',
        extensions: { list: { codec: pb.AgentExtension, required: ['uri'], nested: { params: 'struct' } } },
      },
    },
    securitySchemes: { map: SecurityScheme },
    securityRequirements: { list: SecurityRequirement },
    skills: {
      list: {
        codec: pb.AgentSkill,
        required: ['id', 'name', 'description', 'tags'],
        nested: { securityRequirements: { list: SecurityRequirement } },
      },
    },
    signatures: {
      list: { codec: pb.AgentCardSignature, required: ['protected', 'signature'], nested: { header: 'struct' } },
    },
  },
};

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every problem a strict parser would find in `value` read as the message `spec`. */
function strictProblems(value: unknown, spec: Spec, path = 'card'): string[] {
  if (!isPlain(value)) return [`${path}: expected an object`];
  const problems: string[] = [];
  const defaults = spec.codec.fromJSON({}) as Record<string, unknown>;
  for (const r of spec.required ?? []) {
    const v = value[r];
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0 && r === 'supportedInterfaces'))
      problems.push(`${path}.${r}: required`);
  }
  if (spec.oneof) {
    const members = Object.keys(value);
    if (members.length !== 1)
      problems.push(
        `${path}: exactly one of ${Object.keys(spec.oneof).join(', ')} (got ${members.join(', ') || 'none'})`,
      );
    for (const m of members) {
      const member = spec.oneof[m];
      if (!member) problems.push(`${path}.${m}: unknown field`);
      else problems.push(...strictProblems(value[m], member, `${path}.${m}`));
    }
    return problems;
  }
  for (const [key, v] of Object.entries(value)) {
    const at = `${path}.${key}`;
    if (!(key in defaults)) {
      problems.push(`${at}: unknown field`);
      continue;
    }
    const nested = spec.nested?.[key];
    const d = defaults[key];
    if (nested === 'struct') {
      if (!isPlain(v)) problems.push(`${at}: expected a JSON object (Struct)`);
    } else if (nested === 'stringMap') {
      if (!isPlain(v) || !Object.values(v).every((x) => typeof x === 'string'))
        problems.push(`${at}: expected a map of strings`);
    } else if (nested === 'boolean' || nested === 'string') {
      if (typeof v !== nested) problems.push(`${at}: expected a ${nested}`);
    } else if (nested && 'list' in nested) {
      if (!Array.isArray(v)) problems.push(`${at}: expected a list`);
      else v.forEach((x, i) => problems.push(...strictProblems(x, nested.list, `${at}[${i}]`)));
    } else if (nested && 'map' in nested) {
      if (!isPlain(v)) problems.push(`${at}: expected a map`);
      else for (const [k, x] of Object.entries(v)) problems.push(...strictProblems(x, nested.map, `${at}.${k}`));
    } else if (nested) {
      problems.push(...strictProblems(v, nested, at));
    } else if (Array.isArray(d)) {
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))
        problems.push(`${at}: expected a list of strings`);
    } else if (typeof v !== typeof d) {
      problems.push(`${at}: expected a ${typeof d}`);
    }
  }
  return problems;
}

let t: TestGateway;
let token: string;
beforeAll(async () => {
  t = await startTestGateway({
    description: 'Counts fences.',
    skills: [{ id: 'count', name: 'Count', description: 'counts', tags: ['fence'], examples: ['how many?'] }],
    accepts: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
  });
  token = t.gateway.exposures.enable(t.name, { compat03: true }).token;
});
afterAll(() => t.dispose());

describe('every card we serve is a strict A2A 1.0 AgentCard', () => {
  it('the checker itself refuses unknown, missing and mistyped fields, and knows the SDK field set', () => {
    expect(
      strictProblems(
        {
          name: 'x',
          description: 'd',
          version: '1',
          supportedInterfaces: [],
          capabilities: {},
          defaultInputModes: [],
          defaultOutputModes: [],
          skills: [],
          capsules: [],
        },
        AgentCard,
      ),
    ).toEqual(['card.supportedInterfaces: required', 'card.capsules: unknown field']);
    expect(
      strictProblems(
        { name: 1, capabilities: { streaming: 'yes', extensions: [{ uri: 'u', required: false, extra: 1 }] } },
        AgentCard,
      ),
    ).toEqual(
      expect.arrayContaining([
        'card.name: expected a string',
        'card.capabilities.streaming: expected a boolean',
        'card.capabilities.extensions[0].extra: unknown field',
        'card.description: required',
      ]),
    );
    expect(
      strictProblems(
        { securitySchemes: { a: { httpAuthSecurityScheme: {}, type: 'http' } } },
        { ...AgentCard, required: [] },
      ),
    ).toEqual([
      'card.securitySchemes.a: exactly one of apiKeySecurityScheme, httpAuthSecurityScheme, oauth2SecurityScheme, openIdConnectSecurityScheme, mtlsSecurityScheme (got httpAuthSecurityScheme, type)',
      'card.securitySchemes.a.type: unknown field',
    ]);
    // the oneof member names are the ones the SDK reads
    for (const m of Object.keys(SecurityScheme.oneof!))
      expect((pb.SecurityScheme.fromJSON({ [m]: {} }) as any).scheme?.$case).toBe(m);
    for (const m of Object.keys(OAuthFlows.oneof!))
      expect((pb.OAuthFlows.fromJSON({ [m]: {} }) as any).flow?.$case).toBe(m);
  });

  it('door card, door extended card, gateway index card, capsule card and its extended card', async () => {
    const door = t.capsule.session.url;
    const f = t.authFetch(token);
    const cards: Record<string, unknown> = {
      'door card': await (await fetch(`${door}/.well-known/agent-card.json`)).json(),
      'door extended card': (await t.capsule.rpc('GetExtendedAgentCard', {})).result,
      'gateway index card': await (await f(`${t.gateway.url}/.well-known/agent-card.json`)).json(),
      'gateway capsule card': await (await f(t.gateway.urlsOf(t.name).card)).json(),
      'gateway extended card': (await t.rpc(token, 'GetExtendedAgentCard', {})).body.result,
    };
    for (const [name, card] of Object.entries(cards)) {
      expect(card, name).toBeDefined();
      expect(strictProblems(card, AgentCard), name).toEqual([]);
    }
    expect((cards['gateway capsule card'] as any).signatures).toHaveLength(1);
  });
});
