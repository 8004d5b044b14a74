import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { MAX_TASK_TRACE_LINES } from '../../src-shared/contract';
import { newSessionId, newTaskId } from '../../src-shared/ids';
import { createTraceWriter } from '../trace';
import { createTestStudio, type TestStudio } from './test-studio';
import { taskTraceFromFile } from './traces-task';

// sessions.taskTrace: the lines of one task that make its turns and delegations, and its model's price.

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

function record(home: string, model: string, lines: ({ event_type: string } & Record<string, unknown>)[]): string {
  const id = newSessionId();
  const w = createTraceWriter(join(home, 'records', id, 'trace.jsonl'), id);
  w.append({
    event_type: 'session_start',
    capsule: 'coordinator',
    driver: 'capsule/driver-openai',
    model,
    pid: process.pid,
  });
  for (const l of lines) w.append(l);
  w.append({ event_type: 'session_end', reason: 'stopped' });
  w.dispose();
  return id;
}

it("answers a task's own turn, tool and delegation lines in order, with the model's price", async () => {
  studio = await createTestStudio({ workspace: null });
  const mine = newTaskId();
  const other = newTaskId();
  const id = record(studio.home, 'gpt-4o-mini', [
    { event_type: 'a2a_task_received', task_id: mine, text: 'go' },
    { event_type: 'task_start', task_id: mine },
    { event_type: 'task_start', task_id: other },
    { event_type: 'frame', task_id: mine, text: 'streamed' },
    { event_type: 'inference', task_id: mine, turn: 1, tokens_in: 100, tokens_out: 10, duration_ms: 50 },
    { event_type: 'inference', task_id: other, turn: 1, tokens_in: 1, tokens_out: 1, duration_ms: 5 },
    { event_type: 'tool_call', task_id: mine, call_id: 'c1', name: 'delegate_task', arguments: { to: 'researcher' } },
    { event_type: 'delegation_start', task_id: mine, delegation_id: 'dlg_1', call_id: 'c1', capsule: 'researcher' },
    {
      event_type: 'tool_result',
      task_id: mine,
      call_id: 'c1',
      name: 'delegate_task',
      ok: true,
      result: 'facts',
      peer_task_id: 'tsk_child',
    },
    { event_type: 'task_end', task_id: mine, state: 'TASK_STATE_COMPLETED' },
  ]);
  const got = await studio.core.invoke('sessions.taskTrace', { sessionId: id, taskId: mine });
  expect(got.events.map((e) => e.event_type)).toEqual([
    'a2a_task_received',
    'task_start',
    'inference',
    'tool_call',
    'delegation_start',
    'tool_result',
    'task_end',
  ]);
  expect(got.events.every((e) => e.task_id === mine)).toBe(true);
  expect(got).toMatchObject({ truncated: false, model: 'gpt-4o-mini', price: { inPerMTok: 0.15, outPerMTok: 0.6 } });
  // A model the table does not know has no price (and no cost is made up for it).
  const rehearsed = record(studio.home, 'rehearsal', [{ event_type: 'task_start', task_id: mine }]);
  expect((await studio.core.invoke('sessions.taskTrace', { sessionId: rehearsed, taskId: mine })).price).toBeNull();
  // A task the session never saw has no lines; a bad task id is refused at the boundary.
  expect((await studio.core.invoke('sessions.taskTrace', { sessionId: id, taskId: newTaskId() })).events).toEqual([]);
  await expect(studio.core.invoke('sessions.taskTrace', { sessionId: id, taskId: '' })).rejects.toMatchObject({
    code: 'invalid_input',
  });
});

it('sends at most MAX_TASK_TRACE_LINES lines of one task, and says it cut them', async () => {
  studio = await createTestStudio({ workspace: null });
  const task = newTaskId();
  const lines = Array.from({ length: MAX_TASK_TRACE_LINES + 10 }, (_, i) => ({
    event_type: 'inference',
    task_id: task,
    turn: i + 1,
    tokens_in: 1,
    tokens_out: 1,
    duration_ms: 1,
  }));
  const id = record(studio.home, 'rehearsal', [{ event_type: 'task_start', task_id: task }, ...lines]);
  const got = await studio.core.invoke('sessions.taskTrace', { sessionId: id, taskId: task });
  expect(got.events).toHaveLength(MAX_TASK_TRACE_LINES);
  expect(got.truncated).toBe(true);
  expect(got.events[0].event_type).toBe('task_start');
});

it('reads the same from the trace file where the index cannot open, past one page of lines', async () => {
  const home = mkdtempSync(join(tmpdir(), 'task-trace-'));
  try {
    const task = newTaskId();
    const noise = Array.from({ length: 6000 }, (_, i) => ({ event_type: 'frame', task_id: task, text: `f${i}` }));
    const id = record(home, 'claude-sonnet-4-5', [
      { event_type: 'task_start', task_id: task },
      ...noise,
      { event_type: 'inference', task_id: task, turn: 1, tokens_in: 5, tokens_out: 5, duration_ms: 1 },
      { event_type: 'task_end', task_id: task },
    ]);
    const got = await taskTraceFromFile(join(home, 'records'), id, undefined, task, { available: false });
    expect(got.events.map((e) => e.event_type)).toEqual(['task_start', 'inference', 'task_end']);
    expect(got).toMatchObject({
      truncated: false,
      model: 'claude-sonnet-4-5',
      price: { inPerMTok: 3, outPerMTok: 15 },
      store: { available: false },
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
