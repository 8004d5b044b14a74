import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exportJWK, generateKeyPair } from 'jose';
import { canonicalizeAgentCard, generateAgentCardSignature, verifyAgentCardSignature } from '@a2a-js/sdk';
import { canonicalCard, type AgentCard } from '../../src-shared/a2a';
import { agentCardOf } from '../door';
import { canonicalJson } from './jcs';
import { verifyRemoteCard } from './remote-verify';
import { startTestGateway, type TestGateway } from './testing';

// Signed cards against the official @a2a-js/sdk 1.3: the SDK verifies the cards the gateway
// signs, the gateway's remote-card check verifies cards the SDK signs, and both sign the same bytes.

let t: TestGateway;
let token: string;
beforeAll(async () => {
  t = await startTestGateway({ accepts: { type: 'object', properties: { n: { type: 'number' } } } });
  token = t.gateway.exposures.enable(t.name, { compat03: true }).token;
});
afterAll(() => t.dispose());

/** The SDK's key lookup, served from the gateway's JWK Set. */
const sdkVerifier = (jwks: { keys: any[] }) =>
  verifyAgentCardSignature(async (kid) => {
    const jwk = jwks.keys.find((k) => k.kid === kid);
    if (!jwk) throw new Error(`no key ${kid}`);
    return jwk;
  });

describe('card signatures with the @a2a-js/sdk 1.3 verifier and signer', () => {
  it('the SDK verifies the signed card the gateway serves, and refuses it once changed', async () => {
    const served = (await (await t.authFetch(token)(t.gateway.urlsOf(t.name).card)).json()) as AgentCard;
    // defaults the spec drops before signing are on the card as served
    expect(JSON.stringify(served)).toContain('"required":false');
    expect(JSON.stringify(served)).toContain('"list":[]');
    const jwks = (await (await fetch(`${t.gateway.url}/.well-known/jwks.json`)).json()) as { keys: any[] };
    const verify = sdkVerifier(jwks);
    await expect(verify(served as any)).resolves.toBeUndefined();
    const quiet = vi.spyOn(console, 'debug').mockImplementation(() => {}); // the SDK logs each failed signature
    await expect(verify({ ...served, description: 'changed' } as any)).rejects.toThrow(/No valid signatures/);
    quiet.mockRestore();
    const extended = await t.rpc(token, 'GetExtendedAgentCard', {});
    await expect(verify(extended.body.result)).resolves.toBeUndefined();
  });

  it('the remote-card check verifies a card the SDK signed (keys at the card origin)', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const kid = 'sdk-key-1';
    const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' }] };
    let card: unknown;
    const server: Server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(req.url === '/.well-known/jwks.json' ? jwks : card));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      // The SDK signs a ProtoJSON card (its canonical form reads the card with AgentCard.fromJSON).
      const sign = generateAgentCardSignature(privateKey, {
        alg: 'ES256',
        kid,
        typ: 'JOSE',
        jku: `${origin}/.well-known/jwks.json`,
      });
      card = await sign(sampleCard(origin) as any);
      const wire = (await (await fetch(`${origin}/.well-known/agent-card.json`)).json()) as AgentCard;
      expect(await verifyRemoteCard(wire, `${origin}/.well-known/agent-card.json`)).toMatchObject({
        state: 'verified',
        kid,
      });
      // the same card with its defaults written out, or with an unknown field, still verifies
      const withDefaults = {
        ...wire,
        capabilities: { ...wire.capabilities, extensions: [{ ...wire.capabilities.extensions![0], required: false }] },
        skills: [{ ...wire.skills[0], examples: [], securityRequirements: [] }],
        iconUrl: '',
      };
      expect((await verifyRemoteCard(withDefaults as AgentCard, `${origin}/.well-known/agent-card.json`)).state).toBe(
        'verified',
      );
      expect(
        (await verifyRemoteCard({ ...wire, name: 'impostor' }, `${origin}/.well-known/agent-card.json`)).state,
      ).toBe('invalid');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('canonicalises exactly as the SDK does', async () => {
    const served = (await (await t.authFetch(token)(t.gateway.urlsOf(t.name).card)).json()) as AgentCard;
    const index = (await (
      await t.authFetch(token)(`${t.gateway.url}/.well-known/agent-card.json`)
    ).json()) as AgentCard;
    const cards: unknown[] = [
      served,
      index,
      agentCardOf(t.capsule.session),
      sampleCard('https://a.example'),
      oddCard(),
    ];
    for (const c of cards) expect(canonicalJson(canonicalCard(c))).toBe(canonicalizeAgentCard(c as any));
  });
});

function sampleCard(origin: string) {
  return {
    name: 'sdk signed',
    description: 'A card signed by the SDK',
    version: '1.0.0',
    supportedInterfaces: [{ url: `${origin}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: {
      streaming: false,
      extensions: [{ uri: 'urn:ext', description: 'e', required: false, params: { a: [1, 'x'], empty: '' } }],
    },
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    securityRequirements: [{ schemes: { bearer: { list: ['read'] } } }],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 's', name: 'S', description: 'd', tags: ['t'] }],
  };
}

/** Every kind of field the canonical form treats specially: unknown fields, snake_case, oneofs, defaults. */
function oddCard() {
  return {
    name: 'odd',
    description: '',
    version: '2',
    unknownTopLevel: { x: 1 },
    supported_interfaces: [
      { url: 'https://b.example', protocol_binding: 'JSONRPC', protocol_version: '1.0', tenant: '' },
    ],
    provider: { url: 'https://b.example', organization: 'B', extra: true },
    documentationUrl: '',
    iconUrl: 'https://b.example/i.png',
    capabilities: {
      pushNotifications: false,
      extendedAgentCard: true,
      extensions: [{ uri: 'urn:a', required: true, params: { nested: { deep: {} }, list: [], n: 0, f: false } }],
    },
    securitySchemes: {
      key: { apiKeySecurityScheme: { location: 'header', name: 'X-Key' }, httpAuthSecurityScheme: { scheme: 'Basic' } },
      oauth: {
        oauth2SecurityScheme: {
          flows: {
            authorizationCode: {
              authorizationUrl: 'https://b/a',
              tokenUrl: 'https://b/t',
              scopes: { read: 'r' },
              pkceRequired: false,
            },
          },
          oauth2MetadataUrl: '',
        },
      },
      empty: {},
      dev: {
        oauth2SecurityScheme: {
          flows: { device_code: { device_authorization_url: 'https://b/d', token_url: 'https://b/t', scopes: {} } },
        },
      },
    },
    securityRequirements: [{ schemes: {} }, { schemes: { key: { list: [''] } } }],
    defaultInputModes: ['text/plain', ''],
    defaultOutputModes: [],
    skills: [
      {
        id: 'x',
        name: 'X',
        description: 'd',
        tags: [],
        examples: ['e'],
        input_modes: ['application/json'],
        securityRequirements: [],
      },
    ],
    signatures: [{ protected: 'p', signature: 's' }],
  };
}
