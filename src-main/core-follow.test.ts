import { afterEach, describe, expect, it } from 'vitest';
import { MAX_FOLLOWED_SESSIONS, type EventMap, type EventName } from '../src-shared/contract';
import { createTestStudio, type TestStudio } from './workspace/test-studio';

// Trace lines go only to the clients that follow their session: two clients of one core, one
// following the writer's session and one not.

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

function client(s: TestStudio) {
  const heard: { event: EventName; payload: unknown }[] = [];
  const conn = s.core.connect((event, payload) => void heard.push({ event, payload }));
  const lines = (sessionId?: string) =>
    heard
      .filter(
        (h) =>
          h.event === 'trace.appended' &&
          (!sessionId || (h.payload as EventMap['trace.appended']).sessionId === sessionId),
      )
      .flatMap((h) => (h.payload as EventMap['trace.appended']).events);
  return { conn, heard, lines };
}

const ses = (n: number) => `ses_${n.toString(16).padStart(32, '0')}`;

describe('following a session', () => {
  it('sends trace lines to the follower only, until it unfollows or goes away', async () => {
    studio = await createTestStudio();
    const follower = client(studio);
    const other = client(studio);
    expect(studio.core.connections()).toBe(2);
    const { sessionId } = await studio.core.invoke('capsule.launch', { id: 'writer' });
    expect(await follower.conn.handle('trace.follow', { sessionId })).toEqual({
      ok: true,
      value: { following: 1, max: MAX_FOLLOWED_SESSIONS },
    });
    // Following twice changes nothing.
    expect(await follower.conn.handle('trace.follow', { sessionId })).toMatchObject({
      ok: true,
      value: { following: 1 },
    });

    const ended = studio.next(
      'trace.appended',
      (t) => t.sessionId === sessionId && t.events.some((e) => e.event_type === 'task_end'),
    );
    await studio.core.invoke('task.send', { capsuleId: 'writer', text: 'Write about the sea' });
    await ended;
    await expect.poll(() => follower.lines(sessionId).some((e) => e.event_type === 'task_end')).toBe(true);
    expect(other.lines()).toEqual([]);
    // The other client hears everything else.
    expect(other.heard.some((h) => h.event === 'task.updated')).toBe(true);
    expect(other.heard.some((h) => h.event === 'capsule.stateChanged')).toBe(true);
    // Lines carry their index as before: the follower's batches join without gaps.
    const batches = follower.heard
      .filter((h) => h.event === 'trace.appended')
      .map((h) => h.payload as EventMap['trace.appended']);
    for (let i = 1; i < batches.length; i++)
      expect(batches[i].first).toBe(batches[i - 1].first + batches[i - 1].events.length);

    expect(await follower.conn.handle('trace.unfollow', { sessionId })).toEqual({
      ok: true,
      value: { following: 0, max: MAX_FOLLOWED_SESSIONS },
    });
    const before = follower.lines().length;
    const again = studio.next(
      'trace.appended',
      (t) => t.sessionId === sessionId && t.events.some((e) => e.event_type === 'task_end'),
    );
    await studio.core.invoke('task.send', { capsuleId: 'writer', text: 'Once more' });
    await again;
    await new Promise((r) => setTimeout(r, 100));
    expect(follower.lines().length).toBe(before);

    // A client that goes away follows nothing and hears nothing.
    await follower.conn.handle('trace.follow', { sessionId });
    follower.conn.close();
    expect(follower.conn.following()).toEqual([]);
    expect(studio.core.connections()).toBe(1);
    const heardThen = follower.heard.length;
    await studio.core.invoke('capsule.move', { id: 'writer', position: { x: 3, y: 4 } });
    expect(follower.heard.length).toBe(heardThen);
    expect(await follower.conn.handle('trace.follow', { sessionId })).toMatchObject({
      ok: false,
      error: { code: 'disconnected' },
    });
    other.conn.close();
    expect(studio.core.connections()).toBe(0);
  });

  it(`refuses a follow beyond ${MAX_FOLLOWED_SESSIONS} sessions per client, and malformed ones`, async () => {
    studio = await createTestStudio();
    const a = client(studio);
    const b = client(studio);
    for (let i = 0; i < MAX_FOLLOWED_SESSIONS; i++)
      expect(await a.conn.handle('trace.follow', { sessionId: ses(i) })).toMatchObject({ ok: true });
    const refused = await a.conn.handle('trace.follow', { sessionId: ses(999) });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'limit_reached', message: expect.stringContaining(`${MAX_FOLLOWED_SESSIONS} sessions`) },
    });
    expect(a.conn.following()).toHaveLength(MAX_FOLLOWED_SESSIONS);
    // One already followed is no new follow; the bound is per client.
    expect(await a.conn.handle('trace.follow', { sessionId: ses(3) })).toMatchObject({ ok: true });
    expect(await b.conn.handle('trace.follow', { sessionId: ses(999) })).toMatchObject({
      ok: true,
      value: { following: 1 },
    });
    await a.conn.handle('trace.unfollow', { sessionId: ses(0) });
    expect(await a.conn.handle('trace.follow', { sessionId: ses(999) })).toMatchObject({
      ok: true,
      value: { following: MAX_FOLLOWED_SESSIONS },
    });

    for (const bad of [{}, { sessionId: '../../etc' }, { sessionId: ses(1), extra: 1 }, { sessionId: 42 }]) {
      expect(await a.conn.handle('trace.follow', bad)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    }
    expect(await a.conn.handle('trace.unfollow', { sessionId: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    // Other commands pass through the connection as through the core.
    expect(await a.conn.handle('formation.get', {})).toMatchObject({
      ok: true,
      value: { capsules: expect.any(Array) },
    });
    // Without a connection there is nobody to follow for.
    expect(await studio.core.handle('trace.follow', { sessionId: ses(1) })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringContaining('per client connection') },
    });
  });
});
