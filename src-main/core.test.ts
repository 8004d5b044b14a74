import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestStudio, type TestStudio } from './workspace/test-studio';

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

describe('the core', () => {
  it('validates every input at the boundary and answers envelopes', async () => {
    studio = await createTestStudio();
    expect(await studio.core.handle('capsule.move', { id: 'writer' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringContaining('position') },
    });
    expect(
      await studio.core.handle('capsule.move', { id: 'writer', position: { x: 1, y: 2 }, extra: 1 }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(
      await studio.core.handle('remote.add', { url: 'file:///etc/passwd', position: { x: 0, y: 0 } }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(
      await studio.core.handle('capsule.add', { kind: 'worker', name: '../escape', position: { x: 0, y: 0 } }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await studio.core.handle('process.exit', {})).toMatchObject({
      ok: false,
      error: { code: 'unknown_command' },
    });
    expect(await studio.core.handle('toString', {})).toMatchObject({ ok: false, error: { code: 'unknown_command' } });
    expect(await studio.core.handle('trace.tail', { sessionId: '../../etc' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    const ses = `ses_${'0'.repeat(32)}`;
    for (const bad of [{ last: 0 }, { last: -5 }, { last: '10' }, { last: 1.5 }, { after: -1 }, { limit: 10_001 }]) {
      expect(await studio.core.handle('trace.tail', { sessionId: ses, ...bad })).toMatchObject({
        ok: false,
        error: { code: 'invalid_input' },
      });
    }
    expect(await studio.core.handle('trace.tail', { sessionId: ses, last: 10 })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(await studio.core.handle('capsule.stop', { id: 'nobody' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(await studio.core.handle('formation.get', undefined)).toMatchObject({ ok: true });
  });

  it('launches the formation on the rehearsal driver and answers a task sent through the door', async () => {
    studio = await createTestStudio();
    await expect(studio.core.invoke('task.send', { capsuleId: 'writer', text: 'hello' })).rejects.toMatchObject({
      code: 'not_running',
    });
    const idle = studio.next('capsule.stateChanged', (s) => s.id === 'writer' && s.state === 'idle');
    const launched = await studio.core.invoke('capsule.launch', { id: 'writer' });
    expect(launched).toMatchObject({
      state: 'idle',
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      sessionId: expect.stringMatching(/^ses_/),
    });
    await idle;

    const updated = studio.next('task.updated', (u) => u.task.status.state === 'TASK_STATE_COMPLETED');
    const trace = studio.next('trace.appended', (t) => t.events.some((e) => e.event_type === 'task_end'));
    const task = await studio.core.invoke('task.send', { capsuleId: 'writer', text: 'Write about the sea' });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts?.[0].parts[0].text).toBe('Draft: a short, clear paragraph that answers the request.');
    expect((await updated).task.id).toBe(task.id);
    expect((await trace).capsuleId).toBe('writer');

    const list = await studio.core.invoke('task.list', { capsuleId: 'writer' });
    expect(list.map((t) => t.id)).toEqual([task.id]);
    const tail = await studio.core.invoke('trace.tail', { sessionId: launched.sessionId! });
    expect(tail.events.map((e) => e.event_type)).toContain('task_end');
    expect(tail.next).toBe(tail.events.length);
    const lastTwo = await studio.core.invoke('trace.tail', { sessionId: launched.sessionId!, last: 2 });
    expect(lastTwo).toEqual({
      events: tail.events.slice(-2),
      from: tail.next - 2,
      next: tail.next,
      skipped: { bad: 0, deep: 0, foreign: 0, long: 0 },
    });
    // Live batches carry their line index, so tail + live stream join without gaps or repeats.
    const live = studio.events
      .filter((e) => e.event === 'trace.appended')
      .map((e) => e.payload as { sessionId: string; first: number; events: unknown[] });
    const mine = live.filter((b) => b.sessionId === launched.sessionId);
    expect(mine[0].first).toBe(1);
    for (let i = 1; i < mine.length; i++) expect(mine[i].first).toBe(mine[i - 1].first + mine[i - 1].events.length);
    expect(tail.events[mine[0].first].event_type).toBe((mine[0].events[0] as { event_type: string }).event_type);
    const cancel = await studio.core.invoke('task.cancel', { capsuleId: 'writer', taskId: task.id });
    expect(cancel.refused).toMatchObject({ code: -32002, state: 'TASK_STATE_COMPLETED' });

    const stopped = studio.next('capsule.stateChanged', (s) => s.id === 'writer' && s.state === 'stopped');
    await studio.core.invoke('capsule.stop', { id: 'writer' });
    await stopped;
    const trail = readFileSync(`${studio.home}/records/${launched.sessionId}/trace.jsonl`, 'utf8');
    expect(trail).toContain('"session_end"');
  });

  it('runs the example formation: the coordinator delegates to both workers and sums up', async () => {
    studio = await createTestStudio();
    const launched = await studio.core.invoke('formation.launch', {});
    expect(launched).toEqual({ launched: ['researcher', 'writer', 'coordinator'], failed: [] });
    const task = await studio.core.invoke('task.send', { capsuleId: 'coordinator', text: 'Plan a picnic' });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts?.[0].parts[0].text).toContain('Summary:');
    const f = await studio.core.invoke('formation.get', {});
    // Each worker really took one task from the coordinator.
    for (const id of ['researcher', 'writer']) {
      const tasks = await studio.core.invoke('task.list', { capsuleId: id });
      expect(tasks.map((t) => t.status.state)).toEqual(['TASK_STATE_COMPLETED']);
    }
    const coordinator = f.capsules.find((c) => c.id === 'coordinator')!;
    const tail = await studio.core.invoke('trace.tail', { sessionId: coordinator.sessionId! });
    const results = tail.events.filter((e) => e.event_type === 'tool_result') as unknown as {
      ok: boolean;
      name: string;
    }[];
    expect(results.map((r) => [r.name, r.ok])).toEqual([
      ['delegate_task', true],
      ['delegate_task', true],
    ]);
    const stopped = await studio.core.invoke('formation.stop', {});
    expect(stopped.stopped.sort()).toEqual(['coordinator', 'researcher', 'writer']);
  });

  it('says clearly when a pinned port is taken', async () => {
    studio = await createTestStudio();
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const m = await studio.core.invoke('manifest.read', { id: 'writer' });
      await studio.core.invoke('manifest.write', {
        id: 'writer',
        source: m.source.replace(/internal_port: \d+/, `internal_port: ${port}`),
      });
      const err = await studio.core.invoke('capsule.launch', { id: 'writer' }).catch((e) => e);
      expect(err).toMatchObject({ code: 'port_taken', message: expect.stringContaining(String(port)) });
      expect((await studio.core.invoke('formation.get', {})).capsules.find((c) => c.id === 'writer')).toMatchObject({
        state: 'failed',
        error: expect.stringContaining(String(port)),
      });
    } finally {
      blocker.close();
    }
  });
});
