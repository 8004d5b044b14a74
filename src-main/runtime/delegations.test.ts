import { afterEach, describe, expect, it } from 'vitest';
import { startTestSession, type TestSession } from './testing';
import { traceLines } from './trace-lines';

// An orchestrator whose delegations all failed: its final state says so, and it fails when the
// model gave no answer of its own. The delegations go to places the allow list (which only names
// a port nothing listens on) leaves out, so each fails before any connection.

const sessions: TestSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.dispose()));
});

const delegate = (to: string) => ({ name: 'delegate_task', arguments: { to, text: 'please' } });
const refusedA = 'http://127.0.0.1:9/a';
const refusedB = 'http://127.0.0.1:9/b';

async function orchestrator(
  answer: Record<string, unknown>,
  calls = [delegate(refusedA), delegate(refusedB)],
  allow: string[] = ['127.0.0.1:1'],
) {
  const ts = await startTestSession({
    name: 'orchestrator',
    role: 'orchestrator',
    inference: { rehearsal: { replies: [{ turns: [{ tool_calls: calls }, answer] }] } },
    capabilities: { network: { allow } },
  });
  sessions.push(ts);
  const sent = await ts.rpc('SendMessage', {
    message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'go' }] },
  });
  return { ts, task: sent.result.task };
}

const statusText = (task: any) => task.status.message.parts.map((p: { text?: string }) => p.text ?? '').join('');

describe('an orchestrator whose delegations all failed', () => {
  it('fails when its answer is the script’s report that nothing could be done (failed_text)', async () => {
    const { ts, task } = await orchestrator({
      text: 'The workers answered:\n{{tool_results}}',
      failed_text: 'No worker could do it:\n{{tool_results}}',
    });
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(statusText(task)).toMatch(
      /^task failed: every delegation failed \(2 of 2\): http:\/\/127\.0\.0\.1:9\/a: network_refused: .*; http:\/\/127\.0\.0\.1:9\/b: network_refused: /,
    );
    const failed = traceLines(ts.session).find((l) => l.event_type === 'task_failed');
    expect(failed).toMatchObject({ cause: 'delegations_failed' });
    expect(traceLines(ts.session).find((l) => l.event_type === 'task_end')).toMatchObject({
      exit_status: 'failed',
      state: 'TASK_STATE_FAILED',
    });
  });

  it('fails when the model answered nothing', async () => {
    const { task } = await orchestrator({ text: '' });
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(statusText(task)).toContain('every delegation failed (2 of 2)');
  });

  it('completes with an answer of its own, its status message saying every delegation failed', async () => {
    const { task } = await orchestrator({ text: 'Summary: I answered this one myself.' });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(statusText(task)).toMatch(
      /^task completed, but every delegation failed \(2 of 2\): http:\/\/127\.0\.0\.1:9\/a: network_refused/,
    );
    expect(task.artifacts[0].parts[0].text).toBe('Summary: I answered this one myself.');
  });

  it('says so on a reply Message too, as its metadata', async () => {
    const ts = await startTestSession({
      inference: {
        rehearsal: {
          replies: [{ turns: [{ tool_calls: [delegate(refusedA)] }, { text: 'Done my way.', answer_as: 'message' }] }],
        },
      },
      capabilities: { network: { allow: ['127.0.0.1:1'] } },
    });
    sessions.push(ts);
    const sent = await ts.rpc('SendMessage', {
      message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'go' }] },
    });
    expect(sent.result.message.parts[0].text).toBe('Done my way.');
    expect(sent.result.message.metadata.note).toMatch(
      /^every delegation failed \(1 of 1\): http:\/\/127\.0\.0\.1:9\/a: network_refused/,
    );
  });

  it('completes as before when one delegation of two answered', async () => {
    const worker = await startTestSession({ name: 'worker', exports: { peer_tasks: { accept: true } } });
    sessions.push(worker);
    const port = new URL(worker.session.url).port;
    const { task } = await orchestrator(
      { text: 'The workers answered:\n{{tool_results}}', failed_text: 'No worker could do it.' },
      [delegate(worker.session.url), delegate(refusedA)],
      [`127.0.0.1:${port}`],
    );
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(statusText(task)).toBe('task completed');
    expect(task.artifacts[0].parts[0].text).toContain('- http://127.0.0.1:9/a failed: network_refused');
  });
});
