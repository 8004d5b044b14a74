import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { door } from '../door';
import { createTestStudio, type TestStudio } from './test-studio';

// The Studio's cancel, Cancel all tasks and Stop session against a real session: the residue the
// runtime writes (one artifact part per item) reaches the answer, and Stop session ends the session.

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

/** The writer detaches `sleep 30`, then hangs until canceled. */
function detachingWriter(workspace: string): void {
  const file = join(workspace, 'capsules', 'writer.yaml');
  const text = readFileSync(file, 'utf8').replace(
    / {4}replies:[\s\S]*?(?=\n\nlifecycle:)/,
    [
      '    replies:',
      '      - turns:',
      '          - tool_calls:',
      '              - name: shell',
      '                arguments: { command: "sleep 30", detach: true }',
      '          - hang: true',
    ].join('\n'),
  );
  writeFileSync(file, `${text}\ncapabilities:\n  shell:\n    allow: [sleep]\n`);
}

async function busyWriter(s: TestStudio): Promise<string> {
  await s.core.invoke('capsule.launch', { id: 'writer' });
  const shellStarted = s.next('trace.appended', (t) => t.events.some((e) => e.event_type === 'tool_result'));
  const task = await s.core.invoke('task.send', { capsuleId: 'writer', text: 'draft', returnImmediately: true });
  await shellStarted;
  return task.id;
}

describe('cancel and stop in the Studio', () => {
  it('task.cancel answers with the residue the task left: the detached shell command', async () => {
    studio = await createTestStudio();
    detachingWriter(studio.workspace);
    await studio.core.invoke('workspace.open', { dir: studio.workspace });
    const id = await busyWriter(studio);
    const answer = await studio.core.invoke('task.cancel', { capsuleId: 'writer', taskId: id });
    expect(answer.task?.status.state).toBe('TASK_STATE_CANCELED');
    expect(answer.residue).toEqual([
      {
        kind: 'detached_shell',
        work_id: expect.stringMatching(/^wrk_/),
        binary: 'sleep',
        command: 'sleep 30',
        started_at_ms: expect.any(Number),
      },
    ]);
  });

  it('Cancel all tasks keeps the session; Stop session ends it (session_end, door closed, node stopped)', async () => {
    studio = await createTestStudio();
    detachingWriter(studio.workspace);
    await studio.core.invoke('workspace.open', { dir: studio.workspace });
    const first = await busyWriter(studio);
    const kept = await studio.core.invoke('session.cancelAll', { capsuleId: 'writer' });
    expect(kept).toMatchObject({ canceled: [first], ended: false });
    expect(kept.residue.map((r) => r.kind)).toEqual(['detached_shell']);
    const view = await studio.core.invoke('capsule.launch', { id: 'writer' });
    expect(view.state).toBe('idle');

    const second = await busyWriter(studio);
    const stopped = studio.next('capsule.stateChanged', (s) => s.id === 'writer' && s.state === 'stopped');
    const answer = await studio.core.invoke('session.stop', { capsuleId: 'writer' });
    expect(answer).toMatchObject({ session_id: view.sessionId, canceled: [second], ended: true });
    // Both detached commands: the one the first task left and the one the second left.
    expect(answer.residue.filter((r) => r.kind === 'detached_shell')).toHaveLength(2);
    await stopped;
    expect(readFileSync(join(studio.home, 'records', view.sessionId!, 'trace.jsonl'), 'utf8')).toContain(
      '"session_end"',
    );
    await expect(fetch(view.url!, { method: 'POST' })).rejects.toThrow();
    await expect(studio.core.invoke('session.stop', { capsuleId: 'writer' })).rejects.toMatchObject({
      code: 'not_running',
    });
  });

  it('a capsule taken out of formation.yaml while it runs can still be canceled and stopped; unknown and stopped ones are told apart', async () => {
    studio = await createTestStudio();
    await studio.core.invoke('workspace.open', { dir: studio.workspace });
    await studio.core.invoke('capsule.launch', { id: 'writer' });
    const file = join(studio.workspace, 'formation.yaml');
    const gone = studio.nextView((v) => !v.capsules.some((c) => c.id === 'writer'));
    writeFileSync(file, readFileSync(file, 'utf8').replace(/ {2}- id: writer\n.*\n.*\n/, ''));
    await gone;
    const cancel = await studio.core.invoke('task.cancel', { capsuleId: 'writer', taskId: 'tsk_nobody' });
    expect(cancel.refused?.code).toBe(-32001);
    expect(await studio.core.invoke('session.stop', { capsuleId: 'writer' })).toMatchObject({ ended: true });
    await expect(studio.core.invoke('task.cancel', { capsuleId: 'writer', taskId: 'tsk_x' })).rejects.toMatchObject({
      code: 'not_found',
      message: 'No capsule writer in this formation.',
    });
    await expect(studio.core.invoke('task.cancel', { capsuleId: 'researcher', taskId: 'tsk_x' })).rejects.toMatchObject(
      { code: 'not_running', message: 'researcher is not running; launch it first.' },
    );
  });

  it('a session the Studio hosts, ended from outside (capsule stop), ends alone: the Studio and its other capsules go on', async () => {
    studio = await createTestStudio();
    const writer = await studio.core.invoke('capsule.launch', { id: 'writer' });
    await studio.core.invoke('capsule.launch', { id: 'researcher' });
    const stopped = studio.next('capsule.stateChanged', (s) => s.id === 'writer' && s.state === 'stopped');
    expect(await door.endSession(writer.url!)).toMatchObject({ session_id: writer.sessionId, canceled: [] });
    await stopped;
    const task = await studio.core.invoke('task.send', { capsuleId: 'researcher', text: 'still here?' });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect((await studio.core.invoke('formation.get', {})).capsules.find((c) => c.id === 'researcher')?.state).toBe(
      'idle',
    );
  });
});
