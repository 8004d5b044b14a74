import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RuntimesService } from '../runtimes';
import { createTestStudio, type TestStudio } from './test-studio';

// Where a command runs is part of its declaration in the contract; the core asks the runtimes
// service only when the input names something of another runtime (a capsule `@<runtime>/<id>`).
// A Cancel of one of this Studio's capsules never passes through it.

const routed = vi.hoisted(() => ({ calls: [] as string[] }));
vi.mock('../runtimes', async (actual) => {
  const real = await actual<typeof import('../runtimes')>();
  return {
    ...real,
    createRuntimes: (...args: Parameters<typeof real.createRuntimes>): RuntimesService => {
      const service = real.createRuntimes(...args);
      return {
        ...service,
        route: (cmd, input, signal) => (routed.calls.push(cmd), service.route(cmd, input, signal)),
      };
    },
  };
});

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
  routed.calls = [];
});

describe('routing a command', () => {
  it('a local capsule stays here without asking the runtimes; an @runtime capsule is routed', async () => {
    studio = await createTestStudio();
    await studio.core.invoke('workspace.open', { dir: studio.workspace });
    await studio.core.invoke('capsule.launch', { id: 'writer' });
    const cancel = await studio.core.invoke('task.cancel', { capsuleId: 'writer', taskId: 'tsk_nobody' });
    expect(cancel.refused?.code).toBe(-32001);
    expect(routed.calls).toEqual([]);
    await expect(
      studio.core.invoke('task.cancel', { capsuleId: '@lab/writer', taskId: 'tsk_nobody' }),
    ).rejects.toMatchObject({ code: 'not_found', message: 'No runtime lab is attached.' });
    expect(routed.calls).toEqual(['task.cancel']);
  });
});
