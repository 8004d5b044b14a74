import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { finishedTasksOf, readTaskPayloadAsync } from './task-records';

// Tasks read back from the records (GetTask after a restart, a resumed session) take only the
// session's own lines: a forged line claiming another session changes no task, even one naming
// the same task id.

const dir = mkdtempSync(join(tmpdir(), 'capsule-task-records-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OWN = 'ses_own';
const line = (session: string, e: Record<string, unknown>) =>
  JSON.stringify({ ts: '2026-12-01T10:00:00.000Z', session_id: session, ...e });

it('reads a task from its own session lines, not from lines claiming another session', async () => {
  const path = join(dir, 'trace.jsonl');
  writeFileSync(
    path,
    [
      line(OWN, { event_type: 'session_start', capsule: 'c' }),
      line(OWN, { event_type: 'a2a_task_received', task_id: 'tsk_1', context_id: 'ctx', text: 'real question' }),
      line('ses_forged', {
        event_type: 'a2a_task_received',
        task_id: 'tsk_1',
        context_id: 'ctx',
        text: 'forged question',
      }),
      line('ses_forged', { event_type: 'task_start', task_id: 'tsk_2', context_id: 'ctx' }),
      line(OWN, { event_type: 'task_end', task_id: 'tsk_1', state: 'TASK_STATE_COMPLETED', answer: 'real answer' }),
      line('ses_forged', {
        event_type: 'task_end',
        task_id: 'tsk_1',
        state: 'TASK_STATE_FAILED',
        answer: 'forged answer',
      }),
    ].join('\n') + '\n',
  );
  const tasks = await finishedTasksOf(path, OWN);
  expect(tasks.map((t) => [t.id, t.state])).toEqual([['tsk_1', 'TASK_STATE_COMPLETED']]);
  const payload = (await readTaskPayloadAsync(path, 0, 'tsk_1', OWN))!;
  expect(payload.history.map((m) => m.parts[0].text)).toEqual(['real question']);
  expect(payload.artifacts?.[0].parts[0].text).toBe('real answer');
});

// A big trace (many pieces of the streaming read, lines cut across them, text that is not ASCII),
// with a line damaged by a crash mid-write in the middle and a torn last line at the end.
function bigTrace(path: string, tasks: number) {
  const pad = 'é'.repeat(60) + 'x'.repeat(120);
  const lines = [line(OWN, { event_type: 'session_start', capsule: 'c' })];
  lines.push(line(OWN, { event_type: 'a2a_task_received', task_id: 'tsk_long', context_id: 'ctx_l', text: 'first' }));
  for (let i = 0; i < tasks; i++) {
    const id = `tsk_${i}`;
    lines.push(
      line(OWN, { event_type: 'a2a_task_received', task_id: id, context_id: `ctx_${i}`, text: `q${i} ${pad}` }),
    );
    lines.push(
      line(OWN, { event_type: 'task_end', task_id: id, state: 'TASK_STATE_COMPLETED', answer: `a${i} ${pad}` }),
    );
    if (i === tasks >> 1) {
      // Cut short by a crash, then written after: not an event, skipped.
      lines.push(line(OWN, { event_type: 'input_required', task_id: 'tsk_long', question: 'lost' }).slice(0, 70));
      lines.push(line(OWN, { event_type: 'input_required', task_id: 'tsk_long', question: 'which?' }));
    }
  }
  lines.push(line(OWN, { event_type: 'a2a_task_received', task_id: 'tsk_torn', context_id: 'ctx_t', text: 'torn' }));
  lines.push(line(OWN, { event_type: 'task_end', task_id: 'tsk_long', state: 'TASK_STATE_COMPLETED', answer: 'last' }));
  const torn = line(OWN, { event_type: 'task_end', task_id: 'tsk_torn', state: 'TASK_STATE_COMPLETED', answer: 'x' });
  writeFileSync(path, lines.join('\n') + '\n' + torn.slice(0, 40));
}

it('streams a big trace with a damaged line and a torn last line, the event loop turning meanwhile', async () => {
  const path = join(dir, 'big.jsonl');
  const count = 12_000;
  bigTrace(path, count);
  expect(statSync(path).size).toBeGreaterThan(8 * 1024 * 1024);
  let turns = 0;
  const tick = () => {
    turns++;
    if (!done) setImmediate(tick);
  };
  let done = false;
  setImmediate(tick);
  const tasks = await finishedTasksOf(path, OWN);
  done = true;
  // Read a piece at a time: the loop turned between pieces (a read on this thread would not let it).
  expect(turns).toBeGreaterThan(4);
  expect(tasks).toHaveLength(count + 2);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  expect(byId.get('tsk_long')).toMatchObject({ state: 'TASK_STATE_COMPLETED', contextId: 'ctx_l' });
  expect(byId.get('tsk_long')!.offset).toBe(readFileSync(path, 'utf8').indexOf('\n') + 1);
  expect(byId.get(`tsk_${count - 1}`)).toMatchObject({ state: 'TASK_STATE_COMPLETED', statusText: 'task completed' });
  expect(byId.get('tsk_torn')).toMatchObject({
    state: 'TASK_STATE_FAILED',
    statusText: 'the session ended before this task finished',
  });

  // The task whose lines span the whole file, read from its first line to its task_end.
  const offset = byId.get('tsk_long')!.offset;
  const long = (await readTaskPayloadAsync(path, offset, 'tsk_long', OWN))!;
  expect(long.history.map((m) => m.parts[0].text)).toEqual(['first', 'which?']);
  expect(long.artifacts?.[0].parts[0].text).toBe('last');
  const mid = byId.get(`tsk_${count >> 1}`)!;
  const middle = (await readTaskPayloadAsync(path, mid.offset, `tsk_${count >> 1}`, OWN))!;
  expect(middle.artifacts?.[0].parts[0].text).toMatch(/^a6000 é/);
  // A task whose task_end was torn: its message, no answer.
  const t = byId.get('tsk_torn')!;
  expect(await readTaskPayloadAsync(path, t.offset, 'tsk_torn', OWN)).toEqual({
    contextId: 'ctx_t',
    history: [{ messageId: '', role: 'ROLE_USER', parts: [{ text: 'torn' }], contextId: 'ctx_t', taskId: 'tsk_torn' }],
  });
  expect(await readTaskPayloadAsync(join(dir, 'none.jsonl'), 0, 'tsk_1', OWN)).toBeUndefined();
  expect(await finishedTasksOf(join(dir, 'none.jsonl'), OWN)).toEqual([]);
});
