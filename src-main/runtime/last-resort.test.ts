import { afterEach, describe, expect, it } from 'vitest';
import type { Tool } from './tool-types';
import { handleUnexpected, leaveTaskScope, runInTaskScope, type TaskScope } from './last-resort';
import { startTestSession, type TestSession } from './testing';
import { traceLines } from './trace-lines';

// The last-resort handler, driven in process: an error reported from inside a task's work (here a
// tool, as the process event would report it) fails exactly that task, with a trace line, and the
// session answers the next task. The process events themselves are proven in cli/last-resort.test.ts.

let ts: TestSession | undefined;
afterEach(async () => {
  await ts?.dispose();
  ts = undefined;
});

const send = (text: string) => ({ message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] } });

describe('last-resort handler', () => {
  it('fails the task the error belongs to, traces it, and the session goes on', async () => {
    const logged: string[] = [];
    // A tool with a bug: it loses an error in detached work and never answers.
    const buggy: Tool = {
      spec: { name: 'buggy', description: 'has a bug', parameters: { type: 'object', properties: {} } },
      run: () => {
        setTimeout(
          () =>
            handleUnexpected(new Error('lost error with a secret-value-1234'), 'unhandled rejection', {
              log: (l) => logged.push(l),
            }),
          5,
        );
        return new Promise(() => {});
      },
    };
    ts = await startTestSession(
      {
        inference: {
          rehearsal: { replies: [{ when: 'bug', turns: [{ tool_calls: [{ name: 'buggy', arguments: {} }] }] }] },
        },
      },
      { tools: [buggy], secrets: ['secret-value-1234'] },
    );
    const first = await ts.rpc('SendMessage', send('hit the bug'));
    const task = first.result.task;
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(task.status.message.parts[0].text).toBe(
      'task failed: internal error (unhandled rejection) while running this task; the session trace has the details',
    );

    const lines = traceLines(ts.session);
    expect(lines.find((l) => l.event_type === 'runtime_error')).toMatchObject({
      task_id: task.id,
      origin: 'unhandled rejection',
      message: 'lost error with a ***',
    });
    expect(lines.find((l) => l.event_type === 'task_end' && l.task_id === task.id)).toMatchObject({
      exit_status: 'failed',
    });
    expect(JSON.stringify(lines)).not.toContain('secret-value-1234');
    expect(logged).toEqual([
      expect.stringContaining(`in task ${task.id} of session ${ts.session.id}: the task failed`),
    ]);
    expect(logged.join('')).not.toContain('secret-value-1234');

    const next = await ts.rpc('SendMessage', send('hello'));
    expect(next.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    // Outside any task the error is only reported; a task that already ended is not touched.
    handleUnexpected(new Error('stray secret-value-1234'), 'uncaught exception', { log: (l) => logged.push(l) });
    // It names no session, so the secrets of every open one are masked out of it.
    expect(logged[1]).toBe('capsule: unexpected error (uncaught exception), the process keeps running: stray ***');
  });

  it('attributes errors only while a scope is undecided; the last one decided switches the context off', async () => {
    const failures: string[] = [];
    const scope = (taskId: string): TaskScope & { done: boolean } => ({
      sessionId: 'ses_x',
      taskId,
      done: false,
      get settled() {
        return this.done;
      },
      fail(err) {
        failures.push(`${taskId}: ${(err as Error).message}`);
        return !this.done;
      },
    });
    const a = scope('tsk_a');
    const b = scope('tsk_b');
    const log = () => undefined;
    // Work each task detached (timers keep their async context), reported as the process would.
    const later = (s: TaskScope, message: string) =>
      new Promise<void>((done) =>
        runInTaskScope(s, () =>
          setTimeout(() => (handleUnexpected(new Error(message), 'uncaught exception', { log }), done()), 1),
        ),
      );
    const first = later(a, 'a1');
    const second = later(b, 'b1');
    await Promise.all([first, second]);
    expect(failures).toEqual(['tsk_a: a1', 'tsk_b: b1']);

    // One decided, the other still open: the context stays on, and still names the open one.
    const leftOfA = runInTaskScope(a, () =>
      new Promise<void>((done) => setTimeout(done, 1)).then(() =>
        handleUnexpected(new Error('a2'), 'unhandled rejection', { log }),
      ),
    );
    a.done = true;
    leaveTaskScope(a);
    await Promise.all([leftOfA, later(b, 'b2')]);
    expect(failures).toEqual(['tsk_a: a1', 'tsk_b: b1', 'tsk_a: a2', 'tsk_b: b2']);

    // The last one decided: nothing started before is attributed any more (the context is off).
    const leftOfB = runInTaskScope(b, () =>
      new Promise<void>((done) => setTimeout(done, 1)).then(() =>
        handleUnexpected(new Error('b3'), 'unhandled rejection', { log }),
      ),
    );
    b.done = true;
    leaveTaskScope(b);
    await leftOfB;
    expect(failures).toHaveLength(4);
    // A decided scope is not entered again.
    await later(b, 'b4');
    expect(failures).toHaveLength(4);
  });
});
