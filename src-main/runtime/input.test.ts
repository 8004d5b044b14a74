import { afterEach, describe, expect, it } from 'vitest';
import { startTestSession, waitFor, type TestSession } from './testing';
import { traceLines } from './trace-lines';

// request_input: INPUT_REQUIRED, resumed by a message with the same taskId, failed on timeout;
// and the follow-up message rules (-32001, -32004, -32602).

let ts: TestSession | undefined;
afterEach(async () => {
  await ts?.dispose();
  ts = undefined;
});

const ask = (timeout = '10m') => ({
  inference: {
    input_timeout: timeout,
    rehearsal: {
      replies: [
        {
          when: 'paint',
          turns: [{ tool_calls: [{ name: 'request_input', arguments: { question: 'Which color?' } }] }],
        },
      ],
    },
  },
});
const msg = (text: string, extra: Record<string, unknown> = {}) => ({
  message: { messageId: 'm1', contextId: 'ctx-1', role: 'ROLE_USER', parts: [{ text }], ...extra },
});

describe('input required', () => {
  it('asks, answers a blocking send with INPUT_REQUIRED, and resumes on a reply with the same taskId', async () => {
    ts = await startTestSession(ask());
    const first = await ts.rpc('SendMessage', msg('paint the fence'));
    const task = first.result.task;
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(task.status.message.parts[0].text).toBe('Which color?');
    const reply = await ts.rpc('SendMessage', {
      ...msg('green', { messageId: 'm2', taskId: task.id }),
      configuration: { historyLength: 10 },
    });
    expect(reply.result.task.id).toBe(task.id);
    expect(reply.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(reply.result.task.history.map((m: any) => m.parts[0].text)).toEqual([
      'paint the fence',
      'Which color?',
      'green',
    ]);
    const lines = traceLines(ts.session).filter((l) => l.task_id === task.id);
    expect(lines.find((l) => l.event_type === 'tool_result')).toMatchObject({
      name: 'request_input',
      ok: true,
      result: 'green',
    });
    expect(lines.filter((l) => l.event_type === 'a2a_task_received')).toHaveLength(2);
  });

  it('fails the task when no input arrives within inference.input_timeout', async () => {
    ts = await startTestSession(ask('100ms'));
    const first = await ts.rpc('SendMessage', msg('paint it'));
    const id = first.result.task.id;
    const s = ts.session;
    await waitFor(s, () => s.taskState(id) === 'TASK_STATE_FAILED');
    expect(traceLines(s).find((l) => l.event_type === 'task_failed')).toMatchObject({
      task_id: id,
      cause: 'input_timeout',
    });
  });

  it('cancels a task waiting for input', async () => {
    ts = await startTestSession(ask());
    const id = (await ts.rpc('SendMessage', msg('paint'))).result.task.id;
    const r = await ts.rpc('CancelTask', { id });
    expect(r.result.status.state).toBe('TASK_STATE_CANCELED');
    expect(traceLines(ts.session).find((l) => l.event_type === 'task_canceled')).toMatchObject({
      interrupted: 'input',
    });
  });

  it('rejects follow-ups to unknown, terminal, busy or mismatched tasks', async () => {
    ts = await startTestSession({ inference: { rehearsal: { replies: [{ when: 'hang', turns: [{ hang: true }] }] } } });
    const unknown = await ts.rpc('SendMessage', msg('x', { taskId: 'tsk_unknown' }));
    expect(unknown.error.code).toBe(-32001);
    const done = (await ts.rpc('SendMessage', msg('done'))).result.task.id;
    const terminal = await ts.rpc('SendMessage', msg('again', { taskId: done }));
    expect(terminal.error.code).toBe(-32004);
    const mismatch = await ts.rpc('SendMessage', msg('again', { taskId: done, contextId: 'other' }));
    expect(mismatch.error.code).toBe(-32602);
    const busy = (await ts.rpc('SendMessage', { ...msg('hang'), configuration: { returnImmediately: true } })).result
      .task.id;
    const working = await ts.rpc('SendMessage', msg('more', { taskId: busy }));
    expect(working.error.code).toBe(-32004);
  });
});
