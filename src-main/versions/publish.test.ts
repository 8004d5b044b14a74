import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStudio, type TestStudio } from '../workspace/test-studio';

// Draft and publish through the Studio core: an outside caller reaches the exposed writer through
// the gateway and gets the published version while the draft changes; a failing test refuses a
// publish (or is overridden, and the history says so); publishing an earlier version rolls back.

let t: TestStudio;
let token: string;
let url: string;

beforeAll(async () => {
  t = await createTestStudio();
  mkdirSync(join(t.workspace, 'tests'));
  copyFileSync(join(__dirname, 'fixtures', 'writer-flow.yaml'), join(t.workspace, 'tests', 'writer-flow.yaml'));
  const answer = await t.core.invoke('expose.enable', { capsuleId: 'writer' });
  token = answer.token;
  url = answer.exposure.url;
});
afterAll(() => t.dispose());

async function ask(): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: {
        message: { messageId: `m${Date.now()}`, role: 'ROLE_USER', parts: [{ text: 'hi' }] },
        configuration: { returnImmediately: false },
      },
    }),
  });
  const body = (await res.json()) as any;
  const task = body.result?.task;
  expect(task?.status?.state, JSON.stringify(body)).toBe('TASK_STATE_COMPLETED');
  return JSON.stringify(task.artifacts ?? task.status.message);
}

const editWriter = (reply: string) => {
  const file = join(t.workspace, 'capsules/writer.yaml');
  const source = readFileSync(file, 'utf8').replace(/- text: ".*"/, `- text: "${reply}"`);
  return t.core.invoke('manifest.write', { id: 'writer', source });
};

describe('publish', () => {
  it('serves the published version while the draft changes; tests gate a publish; rollback is a publish', async () => {
    const first = await t.core.invoke('history.publish', {});
    expect(first.results.map((r) => [r.name, r.passed])).toEqual([['writer-flow', true]]);
    expect(first.published?.short).toHaveLength(7);
    const v1 = first.published!.version;
    expect(await ask()).toContain('Draft: a short, clear paragraph');
    const { card } = await t.core.invoke('expose.card', { capsuleId: 'writer' });
    expect(card?.version).toBe(`0.1.0+${v1.slice(0, 7)}`);

    // The draft changes, and runs in the Studio: callers still get the published answer.
    await editWriter('Draft v2: tides rise twice a day.');
    await t.core.invoke('capsule.launch', { id: 'writer' });
    expect(await ask()).toContain('Draft: a short, clear paragraph');

    // Taking the coordinator's permission away fails the test: the publish is refused.
    await t.core.invoke('edge.disconnect', { source: 'coordinator', target: 'writer' });
    const refused = await t.core.invoke('history.publish', {});
    expect(refused.published).toBeNull();
    expect(refused.results[0].passed).toBe(false);
    expect(refused.results[0].mismatches.length + (refused.results[0].error ? 1 : 0)).toBeGreaterThan(0);
    expect(await ask()).toContain('Draft: a short, clear paragraph');
    expect((await t.core.invoke('history.list', {})).published?.version).toBe(v1);

    // Drawing the edge again fixes it: the caller gets the new answer.
    await t.core.invoke('edge.connect', { source: 'coordinator', target: 'writer' });
    const second = await t.core.invoke('history.publish', {});
    expect(second.published).not.toBeNull();
    expect(await ask()).toContain('Draft v2');

    // Roll back: publish the first version again.
    const back = await t.core.invoke('history.publish', { version: v1.slice(0, 7) });
    expect(back.published?.version).toBe(v1);
    expect(await ask()).toContain('Draft: a short, clear paragraph');

    const steps = (await t.core.invoke('history.list', {})).steps.map((s) => s.message);
    expect(steps.filter((m) => m.startsWith('Publish'))).toEqual([
      `Publish ${v1.slice(0, 7)} (1 test passed)`,
      `Publish ${second.published!.short} (1 test passed)`,
      `Publish ${v1.slice(0, 7)} (1 test passed)`,
    ]);
    expect(steps).toContain('Disconnect coordinator → writer');
    expect(steps).toContain('Connect coordinator → writer');
  }, 120_000);

  it('publishes with failing tests only on an explicit override, which the history records', async () => {
    await t.core.invoke('edge.disconnect', { source: 'coordinator', target: 'writer' });
    const out = await t.core.invoke('history.publish', { override: true });
    expect(out.published?.overridden).toEqual(['writer-flow']);
    expect(out.step?.message).toMatch(/^Publish [0-9a-f]{7} \(tests overridden: writer-flow failing\)$/);
    expect(readFileSync(join(t.workspace, 'published.yaml'), 'utf8')).toContain('writer-flow');
  }, 60_000);
});
