import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSession, waitFor, type TestSession } from '../../runtime/testing';
import { traceLines } from '../../runtime/trace-lines';
import { KILLED_NOTE } from '../../runtime/process-executor';

// A capsule on the process transport, through the real session and door: answers, resume across
// tasks of a context, and cancel mid-harness with the terminal status of docs/door.md and trace.

const FAKE = join(__dirname, 'fixtures', 'fake-harness.js');

let ts: TestSession | undefined;
afterEach(async () => {
  await ts?.dispose();
  ts = undefined;
});

function harnessCapsule(harness: Record<string, unknown>) {
  return startTestSession({
    inference: {
      transport: 'process',
      model: 'fake-harness',
      driver: { artifact: 'capsule/driver-process' },
      harness: { command: process.execPath, args: [FAKE], resume_args: ['--resume', '{session}'], ...harness },
    },
  });
}

const send = (text: string, immediate = false) => ({
  message: { messageId: `m-${Math.random()}`, contextId: 'ctx-h', role: 'ROLE_USER', parts: [{ text }] },
  ...(immediate ? { configuration: { returnImmediately: true } } : {}),
});

const harnessSays = (s: TestSession, id: string, text: string) => () =>
  traceLines(s.session).some(
    (l) => l.task_id === id && l.event_type === 'harness_output' && String(l.text).includes(text),
  );

describe('process transport capsule', () => {
  it('says in the terminal status that a killed harness may not resume cleanly', async () => {
    ts = await harnessCapsule({ interrupt: 'none' });
    const id = (await ts.rpc('SendMessage', send('hang', true))).result.task.id;
    await waitFor(ts.session, harnessSays(ts, id, 'working'));
    const r = await ts.rpc('CancelTask', { id });
    expect(r.result.status.message?.parts[0].text).toBe(KILLED_NOTE);
    expect(ts.session.peekTask(id)!.status.message?.parts[0].text).toBe(KILLED_NOTE);
  });

  it('kills a harness that ignores the interrupt after grace, says so, and the next message resumes its session', async () => {
    ts = await harnessCapsule({ interrupt: 'sigint', grace_ms: 300 });
    const id = (await ts.rpc('SendMessage', send('stubborn', true))).result.task.id;
    await waitFor(ts.session, harnessSays(ts, id, 'working'));
    const session = /session: (\S+)/.exec(
      traceLines(ts.session).find((l) => l.event_type === 'harness_output')!.text,
    )![1];
    const r = await ts.rpc('CancelTask', { id });
    expect(r.result.status.state).toBe('TASK_STATE_CANCELED');
    const lines = traceLines(ts.session).filter((l) => l.task_id === id);
    expect(lines.find((l) => l.event_type === 'harness_interrupt')).toMatchObject({ interrupt: 'sigint' });
    expect(lines.find((l) => l.event_type === 'harness_exit')).toMatchObject({
      cause: 'canceled',
      killed: true,
      signal: 'SIGKILL',
    });
    expect(lines.find((l) => l.event_type === 'task_end')).toMatchObject({ exit_status: 'canceled' });

    const next = await ts.rpc('SendMessage', send('echo still here'));
    expect(next.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(next.result.task.artifacts[0].parts[0].text).toBe(`echo: still here\nresumed: ${session}`);
  });

  it('an honoured interrupt ends CANCELED without the killed note; a failing harness FAILS the task', async () => {
    ts = await harnessCapsule({ interrupt: { stdin: '\u0003' }, grace_ms: 10_000 });
    const id = (await ts.rpc('SendMessage', send('hang', true))).result.task.id;
    await waitFor(ts.session, harnessSays(ts, id, 'working'));
    const r = await ts.rpc('CancelTask', { id });
    expect(r.result.status.state).toBe('TASK_STATE_CANCELED');
    expect(JSON.stringify(r.result.status)).not.toContain('killed');
    expect(traceLines(ts.session).find((l) => l.task_id === id && l.event_type === 'harness_exit')).toMatchObject({
      cause: 'canceled',
      code: 130,
      killed: false,
    });

    const failed = await ts.rpc('SendMessage', send('fail'));
    expect(failed.result.task.status.state).toBe('TASK_STATE_FAILED');
    expect(failed.result.task.status.message.parts[0].text).toMatch(
      /^task failed: harness .* exited with code 3: boom$/,
    );
    expect(traceLines(ts.session).find((l) => l.event_type === 'task_failed')).toMatchObject({
      cause: 'inference_error',
    });
  });
});
