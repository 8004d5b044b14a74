import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flattenedVerify, importJWK } from 'jose';
import type { AgentCard } from '../../src-shared/a2a';
import { canonicalJson } from './jcs';
import { createCardSigner, signingPayload, SIGNING_KEY_FILE, verifyCardSignature, type CardSigner } from './signing';
import { verifyRemoteCard } from './remote-verify';
import { startTestGateway, type TestGateway } from './testing';

// Signed cards: JCS canonical form, Ed25519 JWS with a detached payload, checked with jose.

describe('JCS', () => {
  it('sorts keys, drops whitespace and serialises numbers like ECMAScript', () => {
    expect(canonicalJson({ b: [1, 'x', null, true], a: { d: 1e21, c: 0.1 }, '\u20ac': 1, '\r': 2 })).toBe(
      '{"\\r":2,"a":{"c":0.1,"d":1e+21},"b":[1,"x",null,true],"€":1}',
    );
    expect(canonicalJson({ n: -0, big: 123456789012345680000, small: 4.5e-7, u: undefined })).toBe(
      '{"big":123456789012345680000,"n":0,"small":4.5e-7}',
    );
    expect(() => canonicalJson({ x: Number.NaN })).toThrow();
  });
});

let dir: string;
let signer: CardSigner;
let t: TestGateway;
let token: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'capsule-sign-'));
  signer = await createCardSigner(dir);
  t = await startTestGateway();
  token = t.gateway.exposures.enable(t.name).token;
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.dispose();
});

const card: AgentCard = {
  name: 'demo',
  description: 'A demo',
  version: '1.0.0',
  supportedInterfaces: [
    { url: 'http://127.0.0.1:1/a2a/capsules/demo', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ],
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'demo', name: 'demo', description: 'd', tags: ['x'] }],
};

describe('card signatures', () => {
  it('keeps the key in the data folder with mode 0600 and reuses it', async () => {
    expect(statSync(join(dir, SIGNING_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect((await createCardSigner(dir)).kid).toBe(signer.kid);
  });

  it('verifies with jose flattenedVerify over the JCS payload', async () => {
    const signed = await signer.sign(card);
    const sig = signed.signatures![0];
    const header = JSON.parse(Buffer.from(sig.protected, 'base64url').toString());
    expect(header).toEqual({ alg: 'EdDSA', kid: signer.kid, typ: 'JOSE' });
    const key = await importJWK(signer.jwks().keys[0], 'EdDSA');
    const payload = Buffer.from(canonicalJson(card)).toString('base64url');
    const { payload: verified } = await flattenedVerify(
      { protected: sig.protected, signature: sig.signature, payload },
      key,
    );
    expect(new TextDecoder().decode(verified)).toBe(signingPayload(signed));
    expect(await verifyCardSignature(signed, signer.jwks())).toEqual({ ok: true, kid: signer.kid });
  });

  it('fails after tampering with any field', async () => {
    const signed = await signer.sign(card);
    const tampered: AgentCard[] = [
      { ...signed, name: 'demo2' },
      { ...signed, supportedInterfaces: [{ ...signed.supportedInterfaces[0], url: 'http://evil.example/' }] },
      { ...signed, capabilities: { streaming: false } },
      { ...signed, skills: [{ ...signed.skills[0], tags: ['y'] }] },
      { ...signed, securitySchemes: { other: { mtlsSecurityScheme: { description: 'added later' } } } },
      { ...signed, capabilities: { streaming: true, extensions: [{ uri: 'urn:x', required: true }] } },
    ];
    for (const c of tampered) expect((await verifyCardSignature(c, signer.jwks())).ok).toBe(false);
    const key = await importJWK(signer.jwks().keys[0], 'EdDSA');
    const sig = signed.signatures![0];
    await expect(
      flattenedVerify(
        {
          protected: sig.protected,
          signature: sig.signature,
          payload: Buffer.from(signingPayload(tampered[0])).toString('base64url'),
        },
        key,
      ),
    ).rejects.toThrow();
    const other = await createCardSigner(mkdtempSync(join(tmpdir(), 'capsule-sign-other-')));
    expect((await verifyCardSignature(signed, other.jwks())).ok).toBe(false);
    expect((await verifyCardSignature(card, signer.jwks())).ok).toBe(false);
  });

  it('the gateway serves signed cards that verify against its JWKS', async () => {
    const served = (await (await t.authFetch(token)(t.gateway.urlsOf(t.name).card)).json()) as AgentCard;
    const jwks = (await (await fetch(`${t.gateway.url}/.well-known/jwks.json`)).json()) as any;
    expect(await verifyCardSignature(served, jwks)).toEqual({ ok: true, kid: t.gateway.signer.kid });
    expect((await verifyCardSignature({ ...served, description: 'changed' }, jwks)).ok).toBe(false);
  });

  it('verifies a remote card with the keys its signature names on its own origin', async () => {
    const cardUrl = t.gateway.urlsOf(t.name).card;
    const served = (await (await t.authFetch(token)(cardUrl)).json()) as AgentCard;
    expect(await verifyRemoteCard(served, cardUrl)).toMatchObject({ state: 'verified', kid: t.gateway.signer.kid });
    expect((await verifyRemoteCard({ ...served, name: 'someone else' }, cardUrl)).state).toBe('invalid');
    expect((await verifyRemoteCard(card, cardUrl)).state).toBe('unsigned');
    const elsewhere = await signer.sign(card, 'https://keys.evil.example/jwks.json'); // a jku off the card's origin is not followed
    expect((await verifyRemoteCard(elsewhere, cardUrl)).state).toBe('invalid');
  });
});
