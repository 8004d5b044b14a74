import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newSessionId, newTaskId } from '../../src-shared/ids';
import { createTraceWriter } from '../trace';
import { syntheticSessionEvents } from '../trace/synthetic';
import { createTestStudio, type TestStudio } from './test-studio';
import { MAX_BARS } from './traces-timeline';

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

function record(home: string, events: Iterable<{ event_type: string } & Record<string, unknown>>): string {
  const id = newSessionId();
  const w = createTraceWriter(join(home, 'records', id, 'trace.jsonl'), id);
  for (const e of events) w.append(e);
  w.dispose();
  return id;
}

describe('sessions over the trace store', () => {
  it('shows a task whose process was killed as interrupted, and a running one as running', async () => {
    studio = await createTestStudio({ workspace: null });
    const { core, home } = studio;
    const dead = spawnSync(process.execPath, ['-e', '']).pid; // a process that has exited
    const cut = (pid: number) => {
      const task = newTaskId();
      return record(home, [
        { event_type: 'session_start', capsule: 'doomed', pid },
        { event_type: 'a2a_task_received', task_id: task, text: 'hang here' },
        { event_type: 'task_start', task_id: task },
      ]);
    };
    const killed = await core.invoke('sessions.get', { sessionId: cut(dead) });
    expect(killed.session.status).toBe('interrupted');
    expect(killed.tasks.map((t) => [t.state, t.interrupted])).toEqual([['TASK_STATE_WORKING', true]]);
    const live = await core.invoke('sessions.get', { sessionId: cut(process.pid) });
    expect(live.session.status).toBe('running');
    expect(live.tasks.map((t) => t.interrupted)).toEqual([false]);
  });

  it('lists, searches, pages events and draws the cause of a worker task', async () => {
    studio = await createTestStudio({ workspace: null });
    const { core, home } = studio;
    const plain = record(home, syntheticSessionEvents({ tasks: 30, capsule: 'plain' }));
    const orchTask = newTaskId();
    const workerTask = newTaskId();
    const traceparent = `00-${orchTask.slice(4)}-0123456789abcdef-01`;
    // Two sessions writing at once, as a formation does: the worker's task runs inside the orchestrator's.
    const open = (capsule: string) => {
      const id = newSessionId();
      const w = createTraceWriter(join(home, 'records', id, 'trace.jsonl'), id);
      w.append({ event_type: 'session_start', capsule, pid: process.pid });
      return { id, w };
    };
    const wk = open('researcher');
    const or = open('coordinator');
    or.w.append({ event_type: 'a2a_task_received', task_id: orchTask, text: 'Write about tide pools' });
    or.w.append({ event_type: 'task_start', task_id: orchTask });
    wk.w.append({ event_type: 'a2a_task_received', task_id: workerTask, text: 'facts please', traceparent });
    wk.w.append({ event_type: 'task_end', task_id: workerTask, state: 'TASK_STATE_COMPLETED', answer: 'facts' });
    or.w.append({
      event_type: 'a2a_send',
      task_id: orchTask,
      peer_task_id: workerTask,
      peer_url: 'http://127.0.0.1:1',
      traceparent,
    });
    or.w.append({
      event_type: 'task_end',
      task_id: orchTask,
      state: 'TASK_STATE_COMPLETED',
      answer: 'anemones everywhere',
    });
    or.w.append({ event_type: 'session_end', reason: 'stopped' });
    or.w.dispose();
    wk.w.dispose(); // no session_end: still running
    const [worker, orch] = [wk.id, or.id];

    const all = await core.invoke('sessions.list', {});
    expect(all.store.available).toBe(true);
    expect(all.sessions.map((s) => s.id)).toEqual([orch, worker, plain]);
    const found = await core.invoke('sessions.list', { search: 'anemones' });
    expect(found.sessions.map((s) => s.id)).toEqual([orch]);
    // The list says where it matched: the line, as a snippet around the words.
    expect(found.sessions[0].match).toMatchObject({
      taskId: orchTask,
      type: 'task_end',
      text: expect.stringContaining('anemones everywhere'),
    });
    expect(all.sessions[0].match).toBeUndefined();
    expect((await core.invoke('sessions.list', { capsule: 'plain' })).sessions.map((s) => s.id)).toEqual([plain]);

    const got = await core.invoke('sessions.get', { sessionId: plain });
    expect(got.tasks).toHaveLength(30);
    const first = await core.invoke('sessions.events', { sessionId: plain, limit: 50 });
    expect(first.total).toBe(302);
    expect(first.events[0].event_type).toBe('session_start');
    const next = await core.invoke('sessions.events', { sessionId: plain, after: first.next!, limit: 50 });
    expect(next.events[0].seq).toBe(50);
    const byOffset = await core.invoke('sessions.events', { sessionId: plain, offset: 300, limit: 50 });
    expect(byOffset.events.map((e) => e.seq)).toEqual([300, 301]);
    expect(byOffset.next).toBeNull();
    const oneTask = await core.invoke('sessions.events', {
      sessionId: plain,
      task: got.tasks[1].id,
      types: ['inference'],
    });
    expect(oneTask.events.map((e) => e.task_id)).toEqual([got.tasks[1].id, got.tasks[1].id, got.tasks[1].id]);

    const timeline = await core.invoke('sessions.timeline', { around: orch });
    const bar = timeline.bars.find((b) => b.taskId === workerTask);
    expect(bar).toMatchObject({ capsule: 'researcher', parentTaskId: orchTask, traceparent });
    expect(timeline.bars.find((b) => b.taskId === orchTask)?.parentTaskId).toBeUndefined();

    await expect(core.invoke('sessions.events', { sessionId: 'nope' })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(core.invoke('sessions.get', { sessionId: newSessionId() })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('draws a huge session on the timeline as its first tasks, and says how many were left out', async () => {
    studio = await createTestStudio({ workspace: null });
    const big = record(studio.home, syntheticSessionEvents({ tasks: MAX_BARS + 300, turns: 1, capsule: 'busy' }));
    const timeline = await studio.core.invoke('sessions.timeline', { around: big });
    expect(timeline.bars).toHaveLength(MAX_BARS);
    expect(timeline.truncated).toEqual([{ sessionId: big, capsule: 'busy', shown: MAX_BARS, total: MAX_BARS + 300 }]);
    const [first] = (await studio.core.invoke('sessions.get', { sessionId: big })).tasks;
    expect(timeline.bars[0].taskId).toBe(first.id);
  });
});
