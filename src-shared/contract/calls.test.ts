import { afterEach, describe, expect, it, vi } from 'vitest';
import { CoreError } from './errors';
import { createCallTable, type ContractPolicy } from './calls';

// The one call policy of the contract's socket clients: bounded, timed, queued only while the
// connection opens, and cancellable (the other end is told).

const policy: ContractPolicy = { maxPending: 2, timeoutMs: 1000, connectWaitMs: 100, backoffMs: [10] };
const down = new CoreError('disconnected', 'down');
afterEach(() => vi.useRealTimers());

describe('contract calls', () => {
  it('answers, bounds what waits, and refuses at once while the connection is down', async () => {
    const sent: string[] = [];
    const calls = createCallTable((t) => sent.push(t), policy);
    const a = calls.invoke('formation.get', {}, undefined, 'open', down);
    calls.invoke('task.list', { capsuleId: 'w' }, undefined, 'open', down).catch(() => undefined);
    await expect(calls.invoke('task.get', {}, undefined, 'open', down)).rejects.toMatchObject({
      code: 'limit_reached',
    });
    await expect(calls.invoke('task.get', {}, undefined, 'down', down)).rejects.toBe(down);
    calls.answer(JSON.parse(sent[0]).id, { ok: true, value: 'view' });
    await expect(a).resolves.toBe('view');
    calls.failAll(down);
    expect(calls.size).toBe(0);
  });

  it('an aborted invoke rejects as canceled and sends the cancel; a queued one is never sent', async () => {
    const sent: string[] = [];
    const calls = createCallTable((t) => sent.push(t), policy);
    const abort = new AbortController();
    const p = calls.invoke('task.send', { capsuleId: 'w', text: 'x' }, { signal: abort.signal }, 'open', down);
    abort.abort();
    await expect(p).rejects.toMatchObject({ code: 'canceled' });
    expect(sent.map((t) => JSON.parse(t).type)).toEqual(['invoke', 'cancel']);
    const queuedAbort = new AbortController();
    const q = calls.invoke('task.get', {}, { signal: queuedAbort.signal }, 'opening', down);
    queuedAbort.abort();
    await expect(q).rejects.toMatchObject({ code: 'canceled' });
    calls.opened();
    expect(sent).toHaveLength(2);
  });

  it('queues while the connection opens, then times out what is not answered', async () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const calls = createCallTable((t) => sent.push(t), policy);
    const waited = calls.invoke('formation.get', {}, undefined, 'opening', down);
    const check = expect(waited).rejects.toMatchObject({ code: 'disconnected' });
    await vi.advanceTimersByTimeAsync(150);
    await check;
    const q = calls.invoke('formation.get', {}, undefined, 'opening', down);
    calls.opened();
    expect(sent).toHaveLength(1);
    const timed = expect(q).rejects.toMatchObject({ code: 'timeout' });
    await vi.advanceTimersByTimeAsync(1100);
    await timed;
  });
});
