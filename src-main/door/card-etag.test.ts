import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSession, type TestSession } from '../runtime/testing';
import { etagOf, matchesIfNoneMatch } from './card-etag';

// The door's card answers conditional GETs: an ETag on every answer, 304 for a matching If-None-Match.

let ts: TestSession;
beforeAll(async () => {
  ts = await startTestSession();
});
afterAll(() => ts.dispose());

const cardUrl = () => `${ts.session.url}/.well-known/agent-card.json`;

describe('door card caching', () => {
  it('sends an ETag and max-age, and 304 without a body when the caller holds that version', async () => {
    const first = await fetch(cardUrl());
    const body = await first.text();
    const etag = first.headers.get('etag')!;
    expect(etag).toBe(etagOf(body));
    expect(first.headers.get('cache-control')).toBe('max-age=60');

    const again = await fetch(cardUrl(), { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);

    const listed = await fetch(cardUrl(), { headers: { 'if-none-match': `"other", W/${etag}` } });
    expect(listed.status).toBe(304);
    const stale = await fetch(cardUrl(), { headers: { 'if-none-match': '"an-old-version"' } });
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe(body);
    // Last-Modified, and If-Modified-Since when no If-None-Match is sent
    const modified = first.headers.get('last-modified')!;
    expect(Date.parse(modified)).toBeGreaterThan(0);
    expect((await fetch(cardUrl(), { headers: { 'if-modified-since': modified } })).status).toBe(304);
    expect(
      (
        await fetch(cardUrl(), {
          headers: { 'if-modified-since': new Date(Date.parse(modified) - 60_000).toUTCString() },
        })
      ).status,
    ).toBe(200);
    expect(
      (await fetch(cardUrl(), { headers: { 'if-modified-since': modified, 'if-none-match': '"an-old-version"' } }))
        .status,
    ).toBe(200);
    // the legacy path serves the same card with the same tag
    expect(
      (await fetch(`${ts.session.url}/.well-known/agent.json`, { headers: { 'if-none-match': etag } })).status,
    ).toBe(304);
  });

  it('matches If-None-Match lists, weak tags and *', () => {
    expect(matchesIfNoneMatch(undefined, '"a"')).toBe(false);
    expect(matchesIfNoneMatch('"b", "a"', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('W/"a"', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('*', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('"ab"', '"a"')).toBe(false);
    expect(etagOf('x')).not.toBe(etagOf('y'));
  });
});
