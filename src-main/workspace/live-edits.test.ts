import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestStudio, type TestStudio } from './test-studio';
import { freePort } from './free-port';

// Edits to a formation that runs: a palette orchestrator wired to a palette worker really
// delegates to it, an edge drawn or deleted applies to the running sessions at once, a worker's
// new port takes its edge along, and other changes say "restart to apply" until restarted.

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

const answer = (task: { artifacts?: { parts: { text?: string }[] }[] }) =>
  (task.artifacts ?? []).flatMap((a) => a.parts.map((p) => p.text ?? '')).join('\n');

async function freshFormation() {
  studio = await createTestStudio();
  const core = studio.core;
  await core.invoke('workspace.create', { dir: join(mkdtempSync(join(studio.home, 'ws-')), 'fresh') });
  const orch = await core.invoke('capsule.add', { kind: 'orchestrator', position: { x: 0, y: 0 } });
  const worker = await core.invoke('capsule.add', { kind: 'worker', position: { x: 400, y: 0 } });
  return { core, orch: orch.id, worker: worker.id };
}

describe('a running formation and its edits', () => {
  it('the palette orchestrator delegates to the worker it is wired to; removing the edge is reported honestly', async () => {
    const { core, orch, worker } = await freshFormation();
    await core.invoke('edge.connect', { source: orch, target: worker });
    await core.invoke('formation.launch', {});
    const done = await core.invoke('task.send', { capsuleId: orch, text: 'a task: count the files' });
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(answer(done)).toBe('The workers answered:\n- worker: Acknowledged: “a task: count the files”');

    await core.invoke('edge.disconnect', { source: orch, target: worker });
    const view = await core.invoke('formation.get', {});
    expect(view.capsules.find((c) => c.id === orch)?.restartToApply).toBeUndefined();
    const after = await core.invoke('task.send', { capsuleId: orch, text: 'a task again' });
    expect(after.status.state).toBe('TASK_STATE_FAILED');
    expect(after.status.message?.parts[0].text).toMatch(
      /^task failed: every delegation failed \(1 of 1\): delegate_task: no worker is reachable from orchestrator/,
    );
    const workerTasks = await core.invoke('task.list', { capsuleId: worker });
    expect(workerTasks).toHaveLength(1);
  });

  it('a worker given a new pinned port keeps its edge; the running worker is marked "restart to apply"', async () => {
    const { core, orch, worker } = await freshFormation();
    await core.invoke('edge.connect', { source: orch, target: worker });
    await core.invoke('capsule.launch', { id: worker });
    const read = await core.invoke('manifest.read', { id: worker });
    const before = /internal_port: (\d+)/.exec(read.source)![1];
    const moved = await freePort(new Set([Number(before)]));
    await core.invoke('manifest.write', {
      id: worker,
      source: read.source.replace(`internal_port: ${before}`, `internal_port: ${moved}`),
      expected: read.hash,
    });

    // While the worker runs its door stays on the old port, and so does the edge (delegations keep working).
    const view = await core.invoke('formation.get', {});
    expect(view.capsules.find((c) => c.id === orch)?.allow).toEqual([`localhost:${before}`]);
    expect(view.edges.map((e) => [e.source, e.target, e.targetKind])).toEqual([[orch, worker, 'capsule']]);
    expect(view.capsules.find((c) => c.id === worker)?.restartToApply).toMatch(/restart/);

    const restarted = await core.invoke('capsule.restart', { id: worker, when: 'idle' });
    expect(restarted.url).toBe(`http://127.0.0.1:${moved}`);
    const after = await core.invoke('formation.get', {});
    expect(after.capsules.find((c) => c.id === worker)?.restartToApply).toBeUndefined();
    expect(after.capsules.find((c) => c.id === orch)?.allow).toEqual([`localhost:${moved}`]);
    expect(after.edges.map((e) => [e.source, e.target, e.targetKind])).toEqual([[orch, worker, 'capsule']]);
  });

  it('a saved manifest that does not load is never applied: Restart is refused and the running session is left as it is', async () => {
    const { core, worker } = await freshFormation();
    const running = await core.invoke('capsule.launch', { id: worker });
    const read = await core.invoke('manifest.read', { id: worker });
    const broken = `${read.source.trimEnd()}\ndelay_msec: 5\n`;
    const line = broken.split('\n').length - 1;
    await core.invoke('manifest.write', { id: worker, source: broken, expected: read.hash });

    const marked = (await core.invoke('formation.get', {})).capsules.find((c) => c.id === worker)!;
    expect(marked.restartToApply).toMatch(
      new RegExp(`does not load \\(capsules/${worker}\\.yaml:${line}: .*delay_msec`),
    );
    expect(marked.restartToApply).toMatch(/keeps running the version it was launched with/);
    for (const when of ['now', 'idle'] as const) {
      await expect(core.invoke('capsule.restart', { id: worker, when })).rejects.toMatchObject({
        code: 'manifest_invalid',
        message: expect.stringMatching(
          new RegExp(`^Cannot restart ${worker}: capsules/${worker}\\.yaml:${line}: .*delay_msec.*left as it is`),
        ),
      });
    }
    const after = (await core.invoke('formation.get', {})).capsules.find((c) => c.id === worker)!;
    expect(after).toMatchObject({ state: 'idle', sessionId: running.sessionId, url: running.url });
    const done = await core.invoke('task.send', { capsuleId: worker, text: 'still there?' });
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('a failed launch badge goes once the manifest is edited', async () => {
    const { core, worker } = await freshFormation();
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const taken = (blocker.address() as { port: number }).port;
    try {
      const read = await core.invoke('manifest.read', { id: worker });
      const pinned = read.source.replace('exports:', `network:\n  internal_port: ${taken}\n\nexports:`);
      const written = await core.invoke('manifest.write', { id: worker, source: pinned, expected: read.hash });
      await expect(core.invoke('capsule.launch', { id: worker })).rejects.toMatchObject({ code: 'port_taken' });
      expect((await core.invoke('formation.get', {})).capsules.find((c) => c.id === worker)).toMatchObject({
        state: 'failed',
        error: expect.stringContaining(String(taken)),
      });

      const free = await freePort(new Set([taken]));
      await core.invoke('manifest.write', {
        id: worker,
        source: pinned.replace(`internal_port: ${taken}`, `internal_port: ${free}`),
        expected: written.hash,
      });
      const after = (await core.invoke('formation.get', {})).capsules.find((c) => c.id === worker)!;
      expect(after.state).toBe('stopped');
      expect(after.error).toBeUndefined();
    } finally {
      blocker.close();
    }
  });

  it('another workspace opens with the running formation kept (back in view on return) or stopped', async () => {
    const { core, orch, worker } = await freshFormation();
    const first = (await core.invoke('formation.get', {})).dir;
    await core.invoke('edge.connect', { source: orch, target: worker });
    await core.invoke('formation.launch', {});
    const before = (await core.invoke('formation.get', {})).capsules.map((c) => c.sessionId);

    const other = await core.invoke('workspace.create', { dir: join(studio!.home, 'other'), running: 'keep' });
    expect(other.capsules).toEqual([]);
    expect(other.runningElsewhere).toBe(2);
    await core.invoke('capsule.add', { kind: 'worker', position: { x: 0, y: 0 } });
    expect((await core.invoke('formation.get', {})).capsules.find((c) => c.id === 'worker')?.state).toBe('stopped');

    const back = await core.invoke('workspace.open', { dir: first, running: 'stop' });
    expect(back.capsules.map((c) => c.sessionId)).toEqual(before);
    expect(back.runningElsewhere).toBeUndefined();
    expect(back.capsules.every((c) => c.state === 'idle')).toBe(true);
    // The kept orchestrator still delegates within its own formation.
    expect(answer(await core.invoke('task.send', { capsuleId: orch, text: 'a task' }))).toContain(
      '- worker: Acknowledged',
    );

    await core.invoke('workspace.open', { dir: join(studio!.home, 'other') });
    const again = await core.invoke('workspace.open', { dir: first });
    expect(again.capsules.every((c) => c.state === 'stopped')).toBe(true);
  });

  it('Restart "when the task ends" lets the running task finish first', async () => {
    const { core, worker } = await freshFormation();
    await core.invoke('capsule.launch', { id: worker });
    const sent = await core.invoke('task.send', { capsuleId: worker, text: 'slow work', returnImmediately: true });
    const restarted = await core.invoke('capsule.restart', { id: worker, when: 'idle' });
    expect(restarted.state).toBe('idle');
    // The task the old session was working on ended as it should, not canceled by the restart.
    const ended = studio!.events
      .filter((e) => e.event === 'task.updated')
      .map((e) => (e.payload as { task: { id: string; status: { state: string } } }).task)
      .filter((t) => t.id === sent.id);
    expect(ended.at(-1)?.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('an allow entry naming an unpinned worker follows it to the port it relaunches on', async () => {
    const { core, orch, worker } = await freshFormation();
    const first = await core.invoke('capsule.launch', { id: worker });
    const port = Number(new URL(first.url!).port);
    const read = await core.invoke('manifest.read', { id: orch });
    await core.invoke('manifest.write', {
      id: orch,
      source: read.source.replace('allow: []', `allow: [localhost:${port}]`),
      expected: read.hash,
    });
    expect((await core.invoke('formation.get', {})).edges.map((e) => e.targetKind)).toEqual(['capsule']);

    await core.invoke('capsule.stop', { id: worker });
    // Something else takes the old port, so the relaunch is sure to land elsewhere.
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(port, '127.0.0.1', r));
    try {
      const again = await core.invoke('capsule.launch', { id: worker });
      const moved = Number(new URL(again.url!).port);
      expect(moved).not.toBe(port);
      const view = await core.invoke('formation.get', {});
      expect(view.capsules.find((c) => c.id === orch)?.allow).toEqual([`localhost:${moved}`]);
      expect(view.edges.map((e) => [e.target, e.targetKind])).toEqual([[worker, 'capsule']]);
    } finally {
      blocker.close();
    }
  });
});
