import { afterEach, describe, expect, it } from 'vitest';
import { taskOfCompact } from '../trace';
import { startTestSession, type TestSession } from './testing';
import { traceLines } from './trace-lines';

// A task_end line carries the final task in its compact form (`final`), and that alone gives back
// the task exactly as GetTask answered it; a `final` that is not one is ignored, not trusted.

let ts: TestSession | undefined;
afterEach(async () => {
  await ts?.dispose();
  ts = undefined;
});

describe('task_end carries the final task', () => {
  it('as its compact form, which reads back to the task GetTask answers', async () => {
    ts = await startTestSession();
    const sent = await ts.rpc('SendMessage', {
      message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hello “there”' }] },
    });
    const got = await ts.rpc('GetTask', { id: sent.result.task.id });
    ts.session.trace.flushSync();
    const end = traceLines(ts.session).find((l) => l.event_type === 'task_end' && l.task_id === sent.result.task.id)!;
    expect(end.task).toBeUndefined();
    expect(Array.isArray(end.final)).toBe(true);
    expect(taskOfCompact(end.final)).toEqual(got.result);
    expect(got.result).toEqual(sent.result.task);
    // Shorter than the task it stands for.
    expect(JSON.stringify(end.final).length).toBeLessThan(JSON.stringify(got.result).length * 0.6);
  });

  it('refuses what is not a compact task', () => {
    const ok = [
      'tsk_1',
      'ctx_1',
      'TASK_STATE_COMPLETED',
      null,
      'task completed',
      'answer',
      [{ messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'q' }] }],
    ];
    expect(taskOfCompact(ok)).toMatchObject({
      id: 'tsk_1',
      contextId: 'ctx_1',
      status: { state: 'TASK_STATE_COMPLETED' },
    });
    for (const bad of [
      undefined,
      null,
      {},
      'x',
      [],
      ok.slice(0, 6),
      [1, ...ok.slice(1)],
      [...ok.slice(0, 3), 5, ...ok.slice(4)],
      [...ok.slice(0, 4), { parts: 'x' }, ...ok.slice(5)],
      [...ok.slice(0, 5), [1], ok[6]],
      [...ok.slice(0, 6), 'h'],
      [...ok.slice(0, 6), [null]],
    ]) {
      expect(taskOfCompact(bad)).toBeUndefined();
    }
  });
});
