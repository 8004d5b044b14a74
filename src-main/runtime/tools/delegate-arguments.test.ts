import { afterEach, describe, expect, it } from 'vitest';
import { startTestSession, type TestSession } from '../testing';
import { traceLines } from '../trace-lines';

// Model output is hostile input: a delegate_task whose `to` is no usable URL fails that tool call
// with a result the model can read, and the session goes on answering (it used to reject a
// promise nobody handled, and the process exited without a session_end).

const BAD = [
  'http://127.0.0.1:100775/',
  'http://a%40b.example:8080/',
  'http://[::1/',
  'ftp://127.0.0.1:21/',
  `http://${'x'.repeat(3000)}.example/`,
];

let ts: TestSession | undefined;
afterEach(async () => {
  await ts?.dispose();
  ts = undefined;
});

const send = (text: string) => ({ message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] } });

describe('delegate_task arguments', () => {
  it('a malformed peer URL fails the tool call clearly and the session answers the next task', async () => {
    ts = await startTestSession({
      capabilities: { network: { allow: ['127.0.0.1', 'a%40b.example'] } },
      inference: {
        rehearsal: {
          replies: [
            {
              when: 'delegate',
              turns: [
                { tool_calls: BAD.map((to) => ({ name: 'delegate_task', arguments: { to, text: 'do it' } })) },
                { text: 'the peers could not be reached' },
              ],
            },
          ],
        },
      },
    });
    const first = await ts.rpc('SendMessage', send('delegate this'));
    expect(first.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    // A late rejection (the agent card fetch used to run detached) would land after the answer.
    await new Promise((r) => setTimeout(r, 50));

    const results = traceLines(ts.session).filter((l) => l.event_type === 'tool_result');
    expect(results).toHaveLength(BAD.length);
    for (const r of results)
      expect(r).toMatchObject({
        name: 'delegate_task',
        ok: false,
        result: expect.stringMatching(/^invalid arguments: to: /),
      });
    expect(results[0].result).toContain('is not a valid URL');
    expect(results[3].result).toContain('only http and https');
    expect(results[4].result).toContain('at most 2048');

    const next = await ts.rpc('SendMessage', send('hello again'));
    expect(next.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(traceLines(ts.session).some((l) => l.event_type === 'runtime_error')).toBe(false);
  });
});
