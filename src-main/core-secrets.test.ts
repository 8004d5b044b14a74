import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestStudio, type TestStudio } from './workspace/test-studio';

// The Studio's contract never carries a ${VAR} value in clear: not in task.send, task.get or
// task.list replies, nor in the task.updated and trace.appended events.

const SECRET = 'ghp_studio_5e1c9a7d3b';
let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

describe('secrets and the contract', () => {
  it('masks an interpolated value the model echoes in replies and events', async () => {
    studio = await createTestStudio({ env: { WRITER_KEY: SECRET } });
    const file = join(studio.workspace, 'capsules', 'writer.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(
        '"Draft: a short, clear paragraph that answers the request."',
        '"Draft signed with ${WRITER_KEY}."',
      ),
    );
    await studio.core.invoke('capsule.launch', { id: 'writer' });
    const updated = studio.next('task.updated', (u) => u.task.status.state === 'TASK_STATE_COMPLETED');
    const task = await studio.core.invoke('task.send', { capsuleId: 'writer', text: `sign it with ${SECRET}` });
    expect(task.artifacts?.[0].parts[0].text).toBe('Draft signed with ***.');
    await updated;
    const replies = [
      task,
      await studio.core.invoke('task.get', { capsuleId: 'writer', taskId: task.id, historyLength: 10 }),
      await studio.core.invoke('task.list', { capsuleId: 'writer' }),
    ];
    for (const r of replies) expect(JSON.stringify(r)).not.toContain(SECRET);
    const events = studio.events.filter((e) => e.event === 'task.updated' || e.event === 'trace.appended');
    expect(
      events.some((e) => e.event === 'task.updated' && JSON.stringify(e.payload).includes('Draft signed with ***.')),
    ).toBe(true);
    expect(JSON.stringify(events)).not.toContain(SECRET);
  });
});
