import { afterEach, describe, expect, it } from 'vitest';
import type { Tool } from './tool-types';
import { handleUnexpected } from './last-resort';
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
        setTimeout(() => handleUnexpected(new Error('lost error with a secret-value-1234'), 'unhandled rejection', { log: (l) => logged.push(l) }), 5);
        return new Promise(() => {});
      },
    };
    ts = await startTestSession(
      { inference: { rehearsal: { replies: [{ when: 'bug', turns: [{ tool_calls: [{ name: 'buggy', arguments: {} }] }] }] } } },
      { tools: [buggy], secrets: ['secret-value-1234'] },
    );
    const first = await ts.rpc('SendMessage', send('hit the bug'));
    const task = first.result.task;
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(task.status.message.parts[0].text).toBe('task failed: internal error (unhandled rejection) while running this task; the session trace has the details');

    const lines = traceLines(ts.session);
    expect(lines.find((l) => l.event_type === 'runtime_error')).toMatchObject({ task_id: task.id, origin: 'unhandled rejection', message: 'lost error with a ***' });
    expect(lines.find((l) => l.event_type === 'task_end' && l.task_id === task.id)).toMatchObject({ exit_status: 'failed' });
    expect(JSON.stringify(lines)).not.toContain('secret-value-1234');
    expect(logged).toEqual([expect.stringContaining(`in task ${task.id} of session ${ts.session.id}: the task failed`)]);
    expect(logged.join('')).not.toContain('secret-value-1234');

    const next = await ts.rpc('SendMessage', send('hello'));
    expect(next.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    // Outside any task the error is only reported; a task that already ended is not touched.
    handleUnexpected(new Error('stray secret-value-1234'), 'uncaught exception', { log: (l) => logged.push(l) });
    // It names no session, so the secrets of every open one are masked out of it.
    expect(logged[1]).toBe('capsule: unexpected error (uncaught exception), the process keeps running: stray ***');
  });
});
