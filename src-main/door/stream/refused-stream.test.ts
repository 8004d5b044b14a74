import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { syncCallsOf, type SyncCall } from '../../sync-fs.fixture';
import { startTestSession, type TestSession } from '../../runtime/testing';
import { readSse } from './sse-reader';

// A SendStreamingMessage the session refuses at once (its queue is full) streams the refused task
// whole, its message in its history, and closes: the task as the refusal left it, without reading
// the records (a refused task is never kept whole in memory).

const watch = vi.hoisted(() => ({ on: false, calls: [] as SyncCall[] }));
vi.mock('node:fs', async (original) => (await import('../../sync-fs.fixture')).watchedFs(await original(), watch));

let ts: TestSession;
beforeAll(async () => {
  ts = await startTestSession({
    lifecycle: { task_acceptance: 'single' },
    inference: { rehearsal: { replies: [{ turns: [{ hang: true }] }] } },
  });
});
afterAll(() => ts.dispose());

it('streams a task refused at once, whole, and closes', async () => {
  await ts.rpc('SendMessage', {
    message: { messageId: 'busy', role: 'ROLE_USER', parts: [{ text: 'hang' }] },
    configuration: { returnImmediately: true },
  });
  const events: any[] = [];
  const calls = await syncCallsOf(watch, async () => {
    const res = await fetch(ts.session.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', accept: 'text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 's1',
        method: 'SendStreamingMessage',
        params: { message: { messageId: 'refused', role: 'ROLE_USER', parts: [{ text: 'one more' }] } },
      }),
    });
    for await (const e of readSse(res.body as any)) events.push(JSON.parse(e.data));
  });
  expect(events).toHaveLength(1);
  const task = events[0].result.task;
  expect(task.status.state).toBe('TASK_STATE_REJECTED');
  expect(task.status.message.parts[0].text).toContain('task_acceptance: single');
  expect(task.history.map((m: any) => m.parts[0].text)).toEqual(['one more']);
  expect(calls.filter((c) => c.fn.startsWith('read') || c.fn === 'openSync')).toEqual([]);
});
