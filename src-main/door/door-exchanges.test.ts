import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSession, waitFor, type TestSession } from '../runtime/testing';

// Every exchange of docs/door.md over real HTTP.

let ts: TestSession | undefined;
afterEach(async () => {
  await ts?.dispose();
  ts = undefined;
});

const send = (text: string, extra: Record<string, unknown> = {}) => ({
  message: { messageId: 'msg-001', contextId: 'ctx-001', role: 'ROLE_USER', parts: [{ text }] },
  ...extra,
});

describe('the door exchanges of docs/door.md over HTTP', () => {
  it('submits with returnImmediately, then polls to COMPLETED with the response artifact', async () => {
    ts = await startTestSession({ lifecycle: { task_acceptance: 'queue', after_task: 'sleep', queue_depth: 2 } });
    const sent = await ts.rpc(
      'SendMessage',
      send('Acknowledge message from orchestrator capsule.', { configuration: { returnImmediately: true } }),
      { id: 1 },
    );
    expect(sent.id).toBe(1);
    const task = sent.result.task;
    expect(task.id).toMatch(/^tsk_[0-9a-f]{32}$/);
    expect(task.contextId).toBe('ctx-001');
    expect(task.status.state).toBe('TASK_STATE_SUBMITTED');
    expect(task.status.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const s = ts.session;
    await waitFor(s, () => s.taskState(task.id) === 'TASK_STATE_COMPLETED');
    const got = await ts.rpc('GetTask', { id: task.id }, { id: 2 });
    expect(got.result.status.state).toBe('TASK_STATE_COMPLETED');
    expect(got.result.status.message).toEqual({
      messageId: `msg_${task.id}_status`,
      contextId: 'ctx-001',
      taskId: task.id,
      role: 'ROLE_AGENT',
      parts: [{ text: 'task completed', mediaType: 'text/plain' }],
    });
    expect(got.result.artifacts).toEqual([
      {
        artifactId: 'response',
        name: 'response',
        parts: [{ text: 'Acknowledged: “Acknowledge message from orchestrator capsule.”', mediaType: 'text/plain' }],
      },
    ]);
  });

  it('answers a blocking SendMessage with the finished task', async () => {
    ts = await startTestSession();
    const sent = await ts.rpc('SendMessage', send('hello'));
    expect(sent.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(sent.result.task.artifacts[0].parts[0].text).toBe('Acknowledged: “hello”');
    // What the answer says ended is in the trace file by the time the answer is out (no flush here).
    const ended = readFileSync(ts.session.trace.path, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"task_end"'))
      .map((l) => JSON.parse(l));
    expect(ended).toMatchObject([{ task_id: sent.result.task.id, exit_status: 'ok' }]);
  });

  it('cancels a hanging task: CANCELED, no artifacts key, trace tells the story', async () => {
    ts = await startTestSession({ inference: { rehearsal: { replies: [{ when: 'hang', turns: [{ hang: true }] }] } } });
    const sent = await ts.rpc('SendMessage', send('please hang', { configuration: { returnImmediately: true } }));
    const id = sent.result.task.id;
    const s = ts.session;
    await waitFor(s, () => s.taskState(id) === 'TASK_STATE_WORKING');
    const canceled = await ts.rpc('CancelTask', { id }, { id: 3 });
    expect(canceled.result.id).toBe(id);
    expect(canceled.result.status.state).toBe('TASK_STATE_CANCELED');
    expect('artifacts' in canceled.result).toBe(false);
    expect((await ts.rpc('GetTask', { id })).result.status.state).toBe('TASK_STATE_CANCELED');
    s.trace.flushSync();
    const lines = readFileSync(s.trace.path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const c = lines.find((l) => l.event_type === 'task_canceled');
    expect(c).toMatchObject({ task_id: id, interrupted: 'inference turn 1', in_flight: [], by: 'client' });
    expect(lines.find((l) => l.event_type === 'task_end')).toMatchObject({
      task_id: id,
      exit_status: 'canceled',
      state: 'TASK_STATE_CANCELED',
    });
  });

  it('cancel of a finished task is -32002 with ErrorInfo naming task and state; unknown is -32001', async () => {
    ts = await startTestSession();
    const id = (await ts.rpc('SendMessage', send('done soon'))).result.task.id;
    const again = await ts.rpc('CancelTask', { id }, { id: 3 });
    expect(again).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: {
        code: -32002,
        message: 'Task cannot be canceled: it is already TASK_STATE_COMPLETED',
        data: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'TASK_NOT_CANCELABLE',
            domain: 'a2a-protocol.org',
            metadata: { taskId: id, state: 'TASK_STATE_COMPLETED' },
          },
        ],
      },
    });
    const unknown = await ts.rpc('CancelTask', { id: 'tsk_00000000000000000000000000000000' });
    expect(unknown.error.code).toBe(-32001);
    expect((await ts.rpc('GetTask', { id: 'tsk_nope' })).error.code).toBe(-32001);
  });

  it('StopSession cancels what runs, reports, and a second call returns an empty canceled', async () => {
    ts = await startTestSession({
      inference: { rehearsal: { replies: [{ turns: [{ hang: true }] }] } },
      lifecycle: { queue_depth: 2 },
    });
    const a = (await ts.rpc('SendMessage', send('one', { configuration: { returnImmediately: true } }))).result.task.id;
    const b = (await ts.rpc('SendMessage', send('two', { configuration: { returnImmediately: true } }))).result.task.id;
    const stop = await ts.rpc('murmur.StopSession', {}, { id: 4 });
    expect(stop).toEqual({
      jsonrpc: '2.0',
      id: 4,
      result: { session_id: ts.session.id, canceled: [a, b].sort(), residue: [] },
    });
    const again = await ts.rpc('murmur.StopSession', {});
    expect(again.result).toEqual({ session_id: ts.session.id, canceled: [], residue: [] });
    // The capsule keeps answering.
    expect((await ts.rpc('GetTask', { id: b })).result.status.state).toBe('TASK_STATE_CANCELED');
  });

  it('a request without A2A-Version gets -32009 and starts nothing', async () => {
    ts = await startTestSession();
    const res = await fetch(ts.session.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: send('x') }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.error.code).toBe(-32009);
    expect(ts.session.listTasks()).toEqual([]);
    const viaQuery = await fetch(`${ts.session.url}/?A2A-Version=1.0.3`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'tsk_x' } }),
    });
    expect(((await viaQuery.json()) as any).error.code).toBe(-32001);
  });

  it('writes records, the running file while it runs, and session_start/session_end', async () => {
    ts = await startTestSession();
    const s = ts.session;
    expect(s.workdir).toBe(join(ts.home, 'records', s.id));
    const runFile = join(ts.home, 'run', `${s.id}.json`);
    const rec = JSON.parse(readFileSync(runFile, 'utf8'));
    expect(rec).toMatchObject({
      session_id: s.id,
      name: 'test-worker',
      version: '0.1.0',
      url: s.url,
      pid: process.pid,
      workdir: s.workdir,
    });
    await ts.rpc('SendMessage', send('trace me'));
    await s.end('done');
    const lines = readFileSync(s.trace.path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.event_type)).toEqual([
      'session_start',
      'a2a_task_received',
      'task_start',
      'inference',
      'task_end',
      'session_end',
    ]);
    for (const l of lines) {
      expect(l.ts).toBeTruthy();
      expect(l.session_id).toBe(s.id);
      if (l.event_type !== 'session_start' && l.event_type !== 'session_end') expect(l.task_id).toMatch(/^tsk_/);
    }
    expect(lines[1]).toMatchObject({
      method: 'SendMessage',
      text: 'trace me',
      message_id: 'msg-001',
      context_id: 'ctx-001',
    });
    expect(() => readFileSync(runFile)).toThrow();
  });
});
