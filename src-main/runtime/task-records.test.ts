import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { finishedTasksOf, readTaskPayload } from './task-records';

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
  const payload = readTaskPayload(path, 0, 'tsk_1', OWN)!;
  expect(payload.history.map((m) => m.parts[0].text)).toEqual(['real question']);
  expect(payload.artifacts?.[0].parts[0].text).toBe('real answer');
});
