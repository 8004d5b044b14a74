import { afterEach, describe, expect, it } from 'vitest';
import { startTestSession, type TestSession } from './testing';
import { traceLines } from './trace-lines';

// The failure rules of docs/door.md, rule by rule, with rehearsal scripts; and the cut-off reply
// on the last allowed turn that still completes.

let ts: TestSession | undefined;
afterEach(async () => {
  await ts?.dispose();
  ts = undefined;
});

const msg = (text: string) => ({ message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text }] } });
const noop = { name: 'noop', arguments: {} };

async function run(inference: Record<string, unknown>, text = 'go') {
  ts = await startTestSession({ inference });
  const r = await ts.rpc('SendMessage', msg(text));
  const task = r.result.task;
  const lines = traceLines(ts.session).filter((l) => l.task_id === task.id);
  return {
    task,
    failed: lines.find((l) => l.event_type === 'task_failed'),
    end: lines.find((l) => l.event_type === 'task_end'),
    lines,
  };
}

describe('failure rules', () => {
  it('every turn used fails (max_turns)', async () => {
    const { task, failed, end } = await run({
      max_turns: 2,
      rehearsal: { replies: [{ turns: [{ tool_calls: [noop] }, { tool_calls: [noop] }, { text: 'never' }] }] },
    });
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(task.status.message.parts[0].text).toContain('max_turns');
    expect(failed).toMatchObject({ cause: 'max_turns' });
    expect(end).toMatchObject({ exit_status: 'failed', state: 'TASK_STATE_FAILED', turns: 2 });
    expect(task.artifacts).toBeUndefined();
  });

  it('two turns in a row at max_tokens with no text and no tool call fail', async () => {
    const { task, failed } = await run({
      rehearsal: { replies: [{ turns: [{ stop: 'max_tokens' }, { stop: 'max_tokens' }] }] },
    });
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(failed).toMatchObject({ cause: 'max_tokens' });
  });

  it('one empty max_tokens turn is survived', async () => {
    const { task } = await run({ rehearsal: { replies: [{ turns: [{ stop: 'max_tokens' }, { text: 'fine' }] }] } });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts[0].parts[0].text).toBe('fine');
  });

  it('a reply cut off at max_tokens on the last allowed turn still completes', async () => {
    const { task, end } = await run({
      max_turns: 2,
      rehearsal: { replies: [{ turns: [{ tool_calls: [noop] }, { text: 'partial ans', stop: 'max_tokens' }] }] },
    });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts[0].parts[0].text).toBe('partial ans');
    expect(end).toMatchObject({ exit_status: 'ok', turns: 2, answer: 'partial ans' });
  });

  it('a cut-off reply before the last turn is continued and joined', async () => {
    const { task } = await run({
      rehearsal: { replies: [{ turns: [{ text: 'first half, ', stop: 'max_tokens' }, { text: 'second half' }] }] },
    });
    expect(task.artifacts[0].parts[0].text).toBe('first half, second half');
  });

  it('an inference error fails the task with the cause', async () => {
    const { task, failed, end } = await run({
      rehearsal: { replies: [{ turns: [{ error: 'provider said 500 three times' }] }] },
    });
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(failed).toMatchObject({ cause: 'inference_error', message: 'provider said 500 three times' });
    expect(end).toMatchObject({ exit_status: 'failed', turns: 0 });
  });

  it('the token spend ceiling fails the task', async () => {
    const { task, failed, end } = await run({
      budget: { max_tokens: 100 },
      rehearsal: { replies: [{ turns: [{ tool_calls: [noop], tokens_in: 90, tokens_out: 20 }, { text: 'never' }] }] },
    });
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(failed).toMatchObject({ cause: 'budget' });
    expect(failed?.message).toContain('inference.budget.max_tokens is 100');
    expect(end).toMatchObject({ tokens_in: 90, tokens_out: 20 });
  });

  it('traces inference per turn and tool calls with their results', async () => {
    const { lines } = await run({
      rehearsal: { replies: [{ turns: [{ tool_calls: [noop], tokens_in: 7, tokens_out: 3 }, { text: 'ok' }] }] },
    });
    const types = lines.map((l) => l.event_type);
    expect(types).toEqual([
      'a2a_task_received',
      'task_start',
      'inference',
      'tool_call',
      'tool_result',
      'inference',
      'task_end',
    ]);
    expect(lines[2]).toMatchObject({
      turn: 1,
      tokens_in: 7,
      tokens_out: 3,
      stop_reason: 'tool_use',
      tool_calls: [{ id: 'call_1_1', name: 'noop' }],
    });
    expect(lines[4]).toMatchObject({ call_id: 'call_1_1', ok: false, result: 'unknown tool noop' });
    expect(lines[5]).toMatchObject({ turn: 2, text: 'ok', stop_reason: 'end_turn' });
    expect(typeof lines[5].duration_ms).toBe('number');
  });
});
