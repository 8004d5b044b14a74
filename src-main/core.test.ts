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
    expect(await studio.core.handle('capsule.move', { id: 'writer' })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('position') } });
    expect(await studio.core.handle('capsule.move', { id: 'writer', position: { x: 1, y: 2 }, extra: 1 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await studio.core.handle('remote.add', { url: 'file:///etc/passwd', position: { x: 0, y: 0 } })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await studio.core.handle('capsule.add', { kind: 'worker', name: '../escape', position: { x: 0, y: 0 } })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await studio.core.handle('process.exit', {})).toMatchObject({ ok: false, error: { code: 'unknown_command' } });
    expect(await studio.core.handle('toString', {})).toMatchObject({ ok: false, error: { code: 'unknown_command' } });
    expect(await studio.core.handle('trace.tail', { sessionId: '../../etc' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await studio.core.handle('capsule.stop', { id: 'nobody' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await studio.core.handle('formation.get', undefined)).toMatchObject({ ok: true });
  });

  it('launches the formation on the rehearsal driver and answers a task sent through the door', async () => {
    studio = await createTestStudio();
    // Ports 0 so parallel test files never collide: the test copy drops the pins.
    for (const id of ['researcher', 'writer']) {
      const m = await studio.core.invoke('manifest.read', { id });
      await studio.core.invoke('manifest.write', { id, source: m.source.replace(/internal_port: \d+/, 'internal_port: 0').replace('network:\n  internal_port: 0', '') });
    }
    await expect(studio.core.invoke('task.send', { capsuleId: 'writer', text: 'hello' })).rejects.toMatchObject({ code: 'not_running' });
    const idle = studio.next('capsule.stateChanged', (s) => s.id === 'writer' && s.state === 'idle');
    const launched = await studio.core.invoke('capsule.launch', { id: 'writer' });
    expect(launched).toMatchObject({ state: 'idle', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), sessionId: expect.stringMatching(/^ses_/) });
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
    const cancel = await studio.core.invoke('task.cancel', { capsuleId: 'writer', taskId: task.id });
    expect(cancel.refused).toMatchObject({ code: -32002, state: 'TASK_STATE_COMPLETED' });

    const stopped = studio.next('capsule.stateChanged', (s) => s.id === 'writer' && s.state === 'stopped');
    await studio.core.invoke('capsule.stop', { id: 'writer' });
    await stopped;
    const trail = readFileSync(`${studio.home}/records/${launched.sessionId}/trace.jsonl`, 'utf8');
    expect(trail).toContain('"session_end"');
  });

  it('says clearly when a pinned port is taken', async () => {
    studio = await createTestStudio();
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const m = await studio.core.invoke('manifest.read', { id: 'writer' });
      await studio.core.invoke('manifest.write', { id: 'writer', source: m.source.replace('47312', String(port)) });
      const err = await studio.core.invoke('capsule.launch', { id: 'writer' }).catch((e) => e);
      expect(err).toMatchObject({ code: 'port_taken', message: expect.stringContaining(String(port)) });
      expect((await studio.core.invoke('formation.get', {})).capsules.find((c) => c.id === 'writer')).toMatchObject({ state: 'failed', error: expect.stringContaining(String(port)) });
    } finally {
      blocker.close();
    }
  });
});
