import { afterEach, describe, expect, it } from 'vitest';
import { createTestStudio, type TestStudio } from './test-studio';

// Breakpoints through the core's contract on the example formation: set on an edge and on a
// node, held by the core (no manifest changes), pushed to the running sessions, a paused task in
// breakpoints.changed with what it is about to send, resumed with an edited message, canceled.

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

const pausedAt = (s: TestStudio, capsuleId: string) =>
  s.next('breakpoints.changed', (v) => v.paused.some((p) => p.capsuleId === capsuleId));

describe('breakpoints through the core', () => {
  it('an edge breakpoint pauses the delegation with its message; the writer gets the edited one', async () => {
    studio = await createTestStudio();
    const { core } = studio;
    const before = await core.invoke('manifest.read', { id: 'coordinator' });
    await core.invoke('formation.launch', {});
    const set = await core.invoke('breakpoints.set', { kind: 'edge', from: 'coordinator', to: 'writer' });
    expect(set.breakpoints).toEqual([
      { kind: 'edge', from: 'coordinator', to: 'writer', id: 'edge:coordinator→writer' },
    ]);
    expect((await core.invoke('manifest.read', { id: 'coordinator' })).hash).toBe(before.hash);

    const paused = pausedAt(studio, 'coordinator');
    const task = await core.invoke('task.send', {
      capsuleId: 'coordinator',
      text: 'Write about otters.',
      returnImmediately: true,
    });
    const view = await paused;
    const p = view.paused[0];
    expect(p).toMatchObject({
      capsuleId: 'coordinator',
      taskId: task.id,
      point: 'edge',
      target: 'writer',
      text: 'Draft a short paragraph for this request.',
      editable: true,
      timeoutMs: 600_000,
    });
    expect((await core.invoke('breakpoints.list', {})).paused).toHaveLength(1);

    const resumed = studio.next('breakpoints.changed', (v) => v.paused.length === 0);
    await core.invoke('breakpoints.resume', {
      sessionId: p.sessionId,
      taskId: p.taskId,
      action: 'continue',
      message: 'Draft a limerick about otters.',
    });
    await resumed;
    const done = await studio.next(
      'task.updated',
      (u) => u.capsuleId === 'coordinator' && u.task.id === task.id && u.task.status.state === 'TASK_STATE_COMPLETED',
    );
    expect(done.task.status.state).toBe('TASK_STATE_COMPLETED');
    const writerTasks = await core.invoke('task.list', { capsuleId: 'writer' });
    expect(writerTasks.map((t) => t.history?.[0]?.parts[0]?.text)).toEqual(['Draft a limerick about otters.']);
    // The researcher's edge had no breakpoint: its delegation went as the model wrote it.
    const researcherTasks = await core.invoke('task.list', { capsuleId: 'researcher' });
    expect(researcherTasks.map((t) => t.history?.[0]?.parts[0]?.text)).toEqual(['Find three facts for this request.']);
  });

  it('a node breakpoint pauses before the turn; cancel ends the task through its door; clear lets the next task run', async () => {
    studio = await createTestStudio();
    const { core } = studio;
    await core.invoke('formation.launch', {});
    await core.invoke('breakpoints.set', { kind: 'turn', capsuleId: 'writer' });
    const paused = pausedAt(studio, 'writer');
    const task = await core.invoke('task.send', {
      capsuleId: 'writer',
      text: 'A paragraph on tides.',
      returnImmediately: true,
    });
    const stated = studio.next('capsule.stateChanged', (c) => c.id === 'writer' && c.running === task.id);
    const p = (await paused).paused[0];
    expect(p).toMatchObject({ point: 'turn', turn: 1, text: 'A paragraph on tides.' });
    // The capsule's view says the same as the pause: the paused task is the work it has in hand,
    // pushed as it paused and read again by a page that loads the formation now.
    expect(await stated).toMatchObject({ state: 'busy', running: task.id });
    const writer = (await core.invoke('formation.get', {})).capsules.find((c) => c.id === 'writer');
    expect(writer).toMatchObject({ state: 'busy', running: task.id, queued: 0 });
    await core.invoke('breakpoints.resume', { sessionId: p.sessionId, taskId: p.taskId, action: 'cancel' });
    expect((await core.invoke('task.get', { capsuleId: 'writer', taskId: task.id })).status.state).toBe(
      'TASK_STATE_CANCELED',
    );
    await expect(
      core.invoke('breakpoints.resume', { sessionId: p.sessionId, taskId: p.taskId, action: 'continue' }),
    ).rejects.toThrow(/not paused/);

    await core.invoke('breakpoints.clear', { all: true });
    const next = await core.invoke('task.send', { capsuleId: 'writer', text: 'Another one.' });
    expect(next.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('a forgotten pause goes on by itself at the timeout, with a notice saying so', async () => {
    studio = await createTestStudio();
    const { core } = studio;
    await core.invoke('capsule.launch', { id: 'writer' });
    await core.invoke('breakpoints.configure', { timeoutSeconds: 5 });
    await core.invoke('breakpoints.set', { kind: 'turn', capsuleId: 'writer' });
    const notice = studio.next('notice.raised', (n) => /breakpoint in writer timed out/.test(n.message), 15_000);
    const task = await core.invoke('task.send', { capsuleId: 'writer', text: 'Nobody watches this one.' });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect((await notice).level).toBe('warning');
    expect((await core.invoke('breakpoints.list', {})).paused).toEqual([]);
  }, 20_000);

  it('refuses breakpoints on nodes the formation does not have, and bounds the timeout', async () => {
    studio = await createTestStudio();
    const { core } = studio;
    await expect(core.invoke('breakpoints.set', { kind: 'turn', capsuleId: 'nobody' })).rejects.toThrow(
      /No capsule nobody/,
    );
    await expect(core.invoke('breakpoints.set', { kind: 'edge', from: 'coordinator', to: 'ghost' })).rejects.toThrow(
      /ghost/,
    );
    await expect(core.invoke('breakpoints.configure', { timeoutSeconds: 1 })).rejects.toThrow(/timeoutSeconds/);
    expect((await core.invoke('breakpoints.configure', { timeoutSeconds: 30 })).timeoutSeconds).toBe(30);
  });
});
