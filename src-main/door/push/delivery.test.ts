import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StreamResponse } from '../../../src-shared/a2a';
import { createPushDelivery, type PushDelivery } from './delivery';
import { startReceiver, type Receiver } from './receiver.fixture';
import { createPushStore, type PushStore } from './store';

const status = (n: number): StreamResponse => ({
  statusUpdate: {
    taskId: 't1',
    contextId: 'c1',
    status: { state: 'TASK_STATE_WORKING', timestamp: `2026-01-01T00:00:0${n}.000Z` },
  },
});

describe('push delivery', () => {
  let receiver: Receiver;
  let store: PushStore;
  let delivery: PushDelivery;
  let traced: Record<string, unknown>[];

  // Short retries keep the test fast; the timeout is only short where a webhook hangs on cue.
  const withTiming = (timeoutMs: number) => {
    delivery?.dispose();
    delivery = createPushDelivery({
      store,
      trace: { append: (e) => traced.push(e) },
      timing: { timeoutMs, backoffMs: [60, 180] },
    });
  };

  beforeAll(async () => {
    // Node loads its fetch implementation on first use; do that outside the timed tests.
    await fetch('http://127.0.0.1:1/').catch(() => {});
  });
  beforeEach(async () => {
    receiver = await startReceiver();
    store = createPushStore();
    traced = [];
    withTiming(5_000);
  });
  afterEach(async () => {
    delivery.dispose();
    await receiver.close();
  });

  it('POSTs the StreamResponse with the token and authentication headers, and traces no secret', async () => {
    store.put('t1', {
      id: 'a',
      url: receiver.url('/hook?key=q-secret'),
      token: 'tok-unique-123',
      authentication: { scheme: 'Bearer', credentials: 'cred-secret-456' },
    });
    delivery.deliver('t1', status(1));
    const [got] = await receiver.waitFor('/hook?key=q-secret', 1);
    expect(got.headers['content-type']).toBe('application/a2a+json');
    expect(got.headers['x-a2a-notification-token']).toBe('tok-unique-123');
    expect(got.headers.authorization).toBe('Bearer cred-secret-456');
    expect(got.body).toEqual(status(1));
    await delivery.idle();
    expect(traced).toHaveLength(1);
    expect(traced[0]).toMatchObject({
      event_type: 'push_delivered',
      task_id: 't1',
      config_id: 'a',
      status: 200,
      attempts: 1,
      event: 'statusUpdate',
    });
    const text = JSON.stringify(traced);
    for (const secret of ['tok-unique-123', 'cred-secret-456', 'q-secret']) expect(text).not.toContain(secret);
  });

  it('sends no token or Authorization header when the config has none', async () => {
    store.put('t1', { id: 'a', url: receiver.url('/bare'), authentication: { scheme: 'Bearer' } });
    delivery.deliver('t1', status(1));
    const [got] = await receiver.waitFor('/bare', 1);
    expect(got.headers['x-a2a-notification-token']).toBeUndefined();
    expect(got.headers.authorization).toBeUndefined();
  });

  it('retries a 5xx after each backoff step, in order, and stops at the first 2xx', async () => {
    receiver.cue('/flaky', 500, 503, 200);
    store.put('t1', { id: 'a', url: receiver.url('/flaky') });
    delivery.deliver('t1', status(1));
    const hits = await receiver.waitFor('/flaky', 3);
    await delivery.idle();
    expect(hits.map((h) => h.body)).toEqual([status(1), status(1), status(1)]);
    const gap1 = hits[1].at - hits[0].at;
    const gap2 = hits[2].at - hits[1].at;
    expect(gap1).toBeGreaterThanOrEqual(55);
    expect(gap2).toBeGreaterThanOrEqual(175);
    expect(gap2).toBeGreaterThan(gap1);
    expect(traced).toEqual([expect.objectContaining({ event_type: 'push_delivered', attempts: 3 })]);
  });

  it('times a hanging webhook out and retries it', async () => {
    withTiming(300);
    receiver.cue('/slow', 'hang', 200);
    store.put('t1', { id: 'a', url: receiver.url('/slow') });
    delivery.deliver('t1', status(1));
    const hits = await receiver.waitFor('/slow', 2);
    await delivery.idle();
    // the sender dropped the hung request at its timeout, then waited the first backoff step
    expect(hits[0].droppedAt! - hits[0].at).toBeGreaterThanOrEqual(200);
    expect(hits[1].at - hits[0].droppedAt!).toBeGreaterThanOrEqual(30); // 60, less the jitter of seeing the drop
    expect(traced).toEqual([expect.objectContaining({ event_type: 'push_delivered', attempts: 2 })]);
  });

  it('gives up after 3 attempts and traces push_failed', async () => {
    receiver.cue('/down', 502);
    store.put('t1', { id: 'a', url: receiver.url('/down') });
    delivery.deliver('t1', status(1));
    await delivery.idle();
    expect(receiver.received.filter((r) => r.path === '/down')).toHaveLength(3);
    expect(traced).toEqual([
      expect.objectContaining({ event_type: 'push_failed', attempts: 3, status: 502, error: 'HTTP 502' }),
    ]);
  });

  it('does not retry a 4xx, but does retry 408 and 429', async () => {
    receiver.cue('/gone', 404);
    receiver.cue('/busy', 429, 408, 204);
    store.put('t1', { id: 'a', url: receiver.url('/gone') });
    store.put('t1', { id: 'b', url: receiver.url('/busy') });
    delivery.deliver('t1', status(1));
    await delivery.idle();
    expect(receiver.received.filter((r) => r.path === '/gone')).toHaveLength(1);
    expect(receiver.received.filter((r) => r.path === '/busy')).toHaveLength(3);
    expect(traced).toContainEqual(
      expect.objectContaining({ event_type: 'push_failed', config_id: 'a', attempts: 1, status: 404 }),
    );
    expect(traced).toContainEqual(
      expect.objectContaining({ event_type: 'push_delivered', config_id: 'b', attempts: 3, status: 204 }),
    );
  });

  it('traces a refused connection as a failure after its attempts', async () => {
    const dead = await startReceiver();
    const url = dead.url('/x');
    await dead.close();
    store.put('t1', { id: 'a', url });
    delivery.deliver('t1', status(1));
    await delivery.idle();
    expect(traced).toEqual([
      expect.objectContaining({ event_type: 'push_failed', attempts: 3, error: 'ECONNREFUSED' }),
    ]);
  });

  it('a hanging webhook delays neither other configs nor its own later events', async () => {
    withTiming(300);
    receiver.cue('/stuck', 'hang', 'hang', 'hang', 200);
    store.put('t1', { id: 'stuck', url: receiver.url('/stuck') });
    store.put('t1', { id: 'fine', url: receiver.url('/fine') });
    for (let i = 1; i <= 3; i++) delivery.deliver('t1', status(i));
    const fine = await receiver.waitFor('/fine', 3);
    expect(fine.map((h) => h.body)).toEqual([status(1), status(2), status(3)]);
    await delivery.idle();
    const stuck = receiver.received.filter((r) => r.path === '/stuck');
    // every event reached the healthy webhook before the stuck one was even retried
    expect(fine[2].at).toBeLessThan(stuck[1].at);
    // event 1: 3 hung attempts; events 2 and 3 then delivered in order
    expect(stuck.map((h) => h.body)).toEqual([status(1), status(1), status(1), status(2), status(3)]);
    expect(traced.filter((e) => e.config_id === 'stuck').map((e) => e.event_type)).toEqual([
      'push_failed',
      'push_delivered',
      'push_delivered',
    ]);
  });

  it('keeps each config in event order under a burst', async () => {
    store.put('t1', { id: 'a', url: receiver.url('/burst') });
    for (let i = 0; i < 9; i++) delivery.deliver('t1', status(i));
    const hits = await receiver.waitFor('/burst', 9);
    expect(hits.map((h) => h.body)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8].map(status));
  });

  it('a deleted config stops receiving at once, even mid-retry', async () => {
    receiver.cue('/del', 500);
    store.put('t1', { id: 'a', url: receiver.url('/del') });
    delivery.deliver('t1', status(1));
    delivery.deliver('t1', status(2));
    await receiver.waitFor('/del', 1);
    store.delete('t1', 'a');
    await delivery.idle();
    expect(receiver.received.filter((r) => r.path === '/del')).toHaveLength(1);
    expect(traced).toEqual([]);
  });

  it('deliverTo reaches one config only', async () => {
    store.put('t1', { id: 'a', url: receiver.url('/one') });
    const b = store.put('t1', { id: 'b', url: receiver.url('/two') });
    delivery.deliverTo(b, status(9));
    await delivery.idle();
    expect(receiver.received.map((r) => r.path)).toEqual(['/two']);
  });

  it('delivers nothing for a task without configs, and dispose drops what is queued', async () => {
    delivery.deliver('t1', status(1));
    await delivery.idle();
    withTiming(300);
    receiver.cue('/later', 'hang');
    store.put('t1', { id: 'a', url: receiver.url('/later') });
    delivery.deliver('t1', status(1));
    delivery.deliver('t1', status(2));
    await receiver.waitFor('/later', 1);
    delivery.dispose();
    await delivery.idle();
    expect(receiver.received).toHaveLength(1);
  });
});
