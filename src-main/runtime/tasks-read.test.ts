import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createTaskRegistry, type LiveTask } from './tasks';

// An old task read back off the main thread (the door's GetTask) is found even when it has just
// finished and its lines still wait in the trace writer: the read starts once they are in the file.

const dir = mkdtempSync(join(tmpdir(), 'capsule-tasks-read-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OWN = 'ses_own';
const line = (e: Record<string, unknown>) =>
  JSON.stringify({ ts: '2026-12-01T10:00:00.000Z', session_id: OWN, ...e }) + '\n';

it('reads a just-finished task whose lines still wait in the writer', async () => {
  const path = join(dir, 'trace.jsonl');
  writeFileSync(path, line({ event_type: 'session_start', capsule: 'c' }));
  // A writer whose lines reach the file only when flushed, on a later turn of the loop.
  let queued: string[] = [];
  const handOver = () => {
    appendFileSync(path, queued.join(''));
    queued = [];
  };
  const trace = {
    path,
    sessionId: OWN,
    flush: () =>
      new Promise<number>((resolve) =>
        setImmediate(() => {
          handOver();
          resolve(statSync(path).size);
        }),
      ),
  };
  // Nothing kept whole: every finished task is read back from the records.
  const registry = createTaskRegistry({ trace, keep: { tasks: 0, bytes: 0 } });
  const offset = statSync(path).size;
  queued.push(
    line({ event_type: 'a2a_task_received', task_id: 'tsk_q', context_id: 'ctx', message_id: 'm1', text: 'question' }),
    line({ event_type: 'task_end', task_id: 'tsk_q', state: 'TASK_STATE_COMPLETED', answer: 'answer' }),
  );
  const status = { state: 'TASK_STATE_COMPLETED' as const, timestamp: '2026-12-01T10:00:01.000Z' };
  registry.finish({ id: 'tsk_q', contextId: 'ctx', offset } as LiveTask, false, {
    id: 'tsk_q',
    contextId: 'ctx',
    status,
  });
  expect(queued).toHaveLength(2);

  const read = await registry.read('tsk_q');
  expect(read).toEqual({
    id: 'tsk_q',
    contextId: 'ctx',
    status,
    history: [{ messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'question' }], contextId: 'ctx', taskId: 'tsk_q' }],
    artifacts: [{ artifactId: 'response', name: 'response', parts: [{ text: 'answer', mediaType: 'text/plain' }] }],
  });
  // historyLength applied; its status alone without the records (its status text is in memory).
  const { history: _h, ...withoutHistory } = read!;
  expect(await registry.read('tsk_q', 0)).toEqual(withoutHistory);
  expect(await registry.read('tsk_q', undefined, false)).toEqual({ id: 'tsk_q', contextId: 'ctx', status });
  // Memory alone: the state, and nothing whole (it was not kept).
  expect(registry.stateOf('tsk_q')).toBe('TASK_STATE_COMPLETED');
  expect(registry.peek('tsk_q')).toBeUndefined();
  expect(await registry.read('tsk_none')).toBeUndefined();
});
