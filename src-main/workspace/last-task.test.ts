import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LAST_OUTPUT_CHARS, lastTaskOf } from '../../src-shared/contract';
import { createTestStudio, type TestStudio } from './test-studio';

// Each capsule's record carries its last task that ended (the node's Last output), kept by the core
// in memory when the task ends: a page that connects later (a reload) reads it from formation.get,
// the same record capsule.stateChanged keeps current, after the session stopped too.

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

const DRAFT = 'Draft: a short, clear paragraph that answers the request.';

describe("a capsule's last task in its record", () => {
  it('formation.get names the last task that ended, with its answer, and keeps it after Stop', async () => {
    studio = await createTestStudio();
    await studio.core.invoke('capsule.launch', { id: 'writer' });
    const before = await studio.core.invoke('formation.get', {});
    expect(before.capsules.find((c) => c.id === 'writer')?.lastTask).toBeUndefined();

    const task = await studio.core.invoke('task.send', { capsuleId: 'writer', text: 'draft it' });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    // The session that ran it: a stopped capsule's Tasks tab reads that session's record by this id.
    const sessionId = before.capsules.find((c) => c.id === 'writer')?.sessionId;
    expect(sessionId).toMatch(/^ses_/);
    const expected = { taskId: task.id, state: 'TASK_STATE_COMPLETED', text: DRAFT, sessionId };
    const view = await studio.core.invoke('formation.get', {});
    expect(view.capsules.find((c) => c.id === 'writer')?.lastTask).toEqual(expected);
    // The clients' copy (rebuilt from formation.changed and capsule.stateChanged) says the same.
    const s = studio;
    await expect.poll(() => s.view()?.capsules.find((c) => c.id === 'writer')?.lastTask).toEqual(expected);

    await studio.core.invoke('session.stop', { capsuleId: 'writer' });
    const stopped = await studio.core.invoke('formation.get', {});
    const writer = stopped.capsules.find((c) => c.id === 'writer');
    expect(writer?.state).toBe('stopped');
    expect(writer?.lastTask).toEqual(expected);
  });

  it('keeps the answer masked as task.updated carried it: a secret value never reaches the record', async () => {
    const secret = 'otter-7f3c-key';
    studio = await createTestStudio({ env: { WRITER_TAGLINE: secret } });
    const file = join(studio.workspace, 'capsules', 'writer.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace('description: Drafts short paragraphs.', 'description: "${WRITER_TAGLINE}"')
        .replace('"Draft: a short, clear paragraph that answers the request."', `"Draft with ${secret} inside."`),
    );
    await studio.core.invoke('capsule.launch', { id: 'writer' });
    const task = await studio.core.invoke('task.send', { capsuleId: 'writer', text: 'draft it' });
    const writer = (await studio.core.invoke('formation.get', {})).capsules.find((c) => c.id === 'writer');
    expect(writer?.lastTask).toEqual({
      taskId: task.id,
      state: 'TASK_STATE_COMPLETED',
      text: 'Draft with *** inside.',
      sessionId: writer?.sessionId,
    });
    // (The manifest's own text holds the literal value; the records of the capsule never do.)
    const s = studio;
    const records = () => s.events.filter((e) => e.event === 'capsule.stateChanged');
    await expect.poll(() => JSON.stringify(records())).toContain('Draft with *** inside.');
    expect(JSON.stringify(records())).not.toContain(secret);
  });

  it('keeps an answer cut to what the node expands to, and nothing for a task still working', () => {
    const long = 'x'.repeat(LAST_OUTPUT_CHARS * 3);
    const ended = lastTaskOf({
      id: 'task-1',
      status: { state: 'TASK_STATE_FAILED', message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: long }] } },
    });
    expect(ended?.state).toBe('TASK_STATE_FAILED');
    expect(ended?.text).toHaveLength(LAST_OUTPUT_CHARS);
    expect(ended?.text.endsWith('…')).toBe(true);
    expect(lastTaskOf({ id: 'task-2', status: { state: 'TASK_STATE_WORKING' } })).toBeUndefined();
  });
});
