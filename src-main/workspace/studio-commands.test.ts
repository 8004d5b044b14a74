import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestStudio, type TestStudio } from './test-studio';

// The folder picker port and the secret store through the core's contract (what both shells serve).

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

const SECRET = 'sk-test-5f1c0ffee';
const usesSecret = (workspace: string) => {
  const file = join(workspace, 'capsules', 'writer.yaml');
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace(
      'description: Drafts short paragraphs.',
      'description: Drafts short paragraphs.\nartifacts:\n  - name: notes-api\n    gateway:\n      endpoint: http://127.0.0.1:9/\n      api_key: ${WRITER_KEY}',
    ),
  );
};

describe('shell capabilities', () => {
  it('the folder picker answers through the pickFolder port, and is refused where the shell has none', async () => {
    studio = await createTestStudio();
    expect(await studio.core.invoke('studio.capabilities', {})).toMatchObject({
      pickFolder: false,
      secrets: { kind: 'file' },
    });
    await expect(studio.core.invoke('workspace.pickFolder', { purpose: 'open' })).rejects.toThrow(
      /type the folder path/,
    );
    await studio.dispose();
    const asked: string[] = [];
    studio = await createTestStudio({
      ports: { pickFolder: async (purpose) => (asked.push(purpose), purpose === 'open' ? '/home/me/ws' : undefined) },
    });
    expect(await studio.core.invoke('studio.capabilities', {})).toMatchObject({ pickFolder: true });
    expect(await studio.core.invoke('workspace.pickFolder', { purpose: 'open' })).toEqual({ dir: '/home/me/ws' });
    expect(await studio.core.invoke('workspace.pickFolder', { purpose: 'create' })).toEqual({ dir: null });
    expect(asked).toEqual(['open', 'create']);
  });
});

describe('secrets', () => {
  it('a capsule whose manifest names a secret launches once it is set; the value reaches no answer, event or trace', async () => {
    studio = await createTestStudio();
    usesSecret(studio.workspace);
    await studio.core.invoke('workspace.open', { dir: studio.workspace });
    await expect(studio.core.invoke('capsule.launch', { id: 'writer' })).rejects.toThrow(/WRITER_KEY is not set/);

    const changed = studio.nextView((v) => v.capsules.find((c) => c.id === 'writer')!.issues.length === 0);
    const view = await studio.core.invoke('secrets.set', { name: 'WRITER_KEY', value: SECRET });
    expect(view.secrets).toEqual([{ name: 'WRITER_KEY', environments: ['default'], shadowedByProcess: false }]);
    await changed;
    const launched = await studio.core.invoke('capsule.launch', { id: 'writer' });
    const task = await studio.core.invoke('task.send', { capsuleId: 'writer', text: 'Draft it.' });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    await studio.core.invoke('capsule.stop', { id: 'writer' });

    const trace = readFileSync(join(studio.home, 'records', launched.sessionId!, 'trace.jsonl'), 'utf8');
    expect(trace).toContain('session_end');
    expect(trace).not.toContain(SECRET);
    expect(JSON.stringify(studio.events)).not.toContain(SECRET);
    expect(JSON.stringify(await studio.core.invoke('secrets.list', {}))).not.toContain(SECRET);
    expect(JSON.stringify(await studio.core.invoke('manifest.read', { id: 'writer' }))).toContain('${WRITER_KEY}');
  });

  it('environments choose the values a launch gets, and a deleted secret is missing again', async () => {
    studio = await createTestStudio();
    usesSecret(studio.workspace);
    await studio.core.invoke('workspace.open', { dir: studio.workspace });
    await studio.core.invoke('secrets.set', { name: 'WRITER_KEY', value: 'prod-value', environment: 'prod' });
    await expect(studio.core.invoke('capsule.launch', { id: 'writer' })).rejects.toThrow(/WRITER_KEY is not set/);
    const view = await studio.core.invoke('secrets.useEnvironment', { environment: 'prod' });
    expect(view).toMatchObject({ environment: 'prod', environments: ['default', 'prod'] });
    await studio.core.invoke('capsule.launch', { id: 'writer' });
    await studio.core.invoke('capsule.stop', { id: 'writer' });
    await studio.core.invoke('secrets.delete', { name: 'WRITER_KEY', environment: 'prod' });
    await expect(studio.core.invoke('capsule.launch', { id: 'writer' })).rejects.toThrow(/WRITER_KEY is not set/);
  });

  it('refuses bad names and oversized values without echoing the value', async () => {
    studio = await createTestStudio();
    const bad = await studio.core.handle('secrets.set', { name: '1BAD', value: SECRET });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(JSON.stringify(bad)).not.toContain(SECRET);
    const big = await studio.core.handle('secrets.set', { name: 'BIG', value: 'x'.repeat(17 * 1024) });
    expect(big).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });
});
