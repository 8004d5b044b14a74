import { afterEach, describe, expect, it } from 'vitest';
import { startTestSession, waitFor, type TestSession } from './testing';
import { traceLines } from './trace-lines';

// A task waiting for input gives up the capsule's one running slot: later tasks run meanwhile.
// Its input puts it at the front of the line, its input_timeout stops counting once the input
// is in, and parked tasks still count against queue_depth.

let ts: TestSession | undefined;
afterEach(async () => {
  await ts?.dispose();
  ts = undefined;
});

const script = (extra: Record<string, unknown> = {}) => ({
  inference: {
    input_timeout: '10m',
    rehearsal: {
      replies: [
        {
          when: 'paint',
          turns: [
            { tool_calls: [{ name: 'request_input', arguments: { question: 'Which color?' } }] },
            { text: 'painted' },
          ],
        },
        { when: 'hang', turns: [{ hang: true }] },
      ],
    },
    ...extra,
  },
});
let n = 0;
const msg = (text: string, extra: Record<string, unknown> = {}, immediate = false) => ({
  message: { messageId: `m${++n}`, role: 'ROLE_USER', parts: [{ text }], ...extra },
  ...(immediate ? { configuration: { returnImmediately: true } } : {}),
});
const state = (id: string) => ts!.session.taskState(id);

describe('input required releases the slot', () => {
  it('a blocking SendMessage is answered while another task waits for input', async () => {
    ts = await startTestSession(script());
    const asking = (await ts.rpc('SendMessage', msg('paint the fence'))).result.task;
    expect(asking.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    // Without the release this send would wait for the input (or the 10 minute timeout).
    const other = (await ts.rpc('SendMessage', msg('quick one'))).result.task;
    expect(other.status.state).toBe('TASK_STATE_COMPLETED');
    expect(ts.session.status()).toMatchObject({ state: 'idle', running: null });
    const done = (await ts.rpc('SendMessage', msg('green', { taskId: asking.id }))).result.task;
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('the input puts the task at the front of the line, ahead of tasks queued before it', async () => {
    ts = await startTestSession(script());
    const s = ts.session;
    const asking = (await ts.rpc('SendMessage', msg('paint it'))).result.task.id;
    const hanging = (await ts.rpc('SendMessage', msg('hang on', {}, true))).result.task.id;
    await waitFor(s, () => state(hanging) === 'TASK_STATE_WORKING');
    const queued = (await ts.rpc('SendMessage', msg('queued after', {}, true))).result.task.id;
    const resumed = await ts.rpc('SendMessage', msg('blue', { taskId: asking }, true));
    expect(resumed.result.task.status.state).toBe('TASK_STATE_WORKING');
    expect(s.status()).toMatchObject({ running: hanging, queued: 2 });
    await ts.rpc('CancelTask', { id: hanging });
    await waitFor(s, () => state(asking) === 'TASK_STATE_COMPLETED' && state(queued) === 'TASK_STATE_COMPLETED');
    const lines = traceLines(s);
    const inputUsed = lines.findIndex((l) => l.task_id === asking && l.event_type === 'tool_result');
    const queuedStarted = lines.findIndex((l) => l.task_id === queued && l.event_type === 'task_start');
    const askingEnded = lines.findIndex((l) => l.task_id === asking && l.event_type === 'task_end');
    expect(inputUsed).toBeGreaterThan(0);
    expect(queuedStarted).toBeGreaterThan(askingEnded);
  });

  it('input_timeout stops once the input is in, even while the task waits for the slot', async () => {
    ts = await startTestSession(script({ input_timeout: '1s' }));
    const s = ts.session;
    // Three calls back to back, well inside the input timeout: ask, occupy the slot, answer.
    const asking = (await ts.rpc('SendMessage', msg('paint'))).result.task.id;
    const hanging = (await ts.rpc('SendMessage', msg('hang', {}, true))).result.task.id;
    await ts.rpc('SendMessage', msg('red', { taskId: asking }, true));
    expect(s.status().running).toBe(hanging);
    // Longer than input_timeout: the task must not fail while the hanging task holds the slot.
    await new Promise((r) => setTimeout(r, 1500));
    expect(state(asking)).toBe('TASK_STATE_WORKING');
    await ts.rpc('CancelTask', { id: hanging });
    await waitFor(s, () => state(asking) === 'TASK_STATE_COMPLETED');
  });

  it('a task canceled while it waits for the slot leaves the line moving', async () => {
    ts = await startTestSession(script());
    const s = ts.session;
    const asking = (await ts.rpc('SendMessage', msg('paint'))).result.task.id;
    const hanging = (await ts.rpc('SendMessage', msg('hang', {}, true))).result.task.id;
    await waitFor(s, () => state(hanging) === 'TASK_STATE_WORKING');
    await ts.rpc('SendMessage', msg('red', { taskId: asking }, true));
    expect((await ts.rpc('CancelTask', { id: asking })).result.status.state).toBe('TASK_STATE_CANCELED');
    await ts.rpc('CancelTask', { id: hanging });
    expect((await ts.rpc('SendMessage', msg('after'))).result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(s.status()).toMatchObject({ running: null, queued: 0 });
  });

  it('parked tasks count against the queue: single takes no task while one waits for input', async () => {
    ts = await startTestSession({ ...script(), lifecycle: { task_acceptance: 'single' } });
    await ts.rpc('SendMessage', msg('paint'));
    const refused = (await ts.rpc('SendMessage', msg('another'))).result.task;
    expect(refused.status.state).toBe('TASK_STATE_REJECTED');
    expect(refused.status.message.parts[0].text).toContain('waiting for input');
  });
});
