import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandName } from '../../src-shared/contract';
import { setCoreClient } from './client';
import { connectCoreEvents } from './coreEvents';
import { createFakeCore, type FakeCore } from './fakeCore';
import { ingest, useStudio } from './index';

// An edge drawn between capsules of different runtimes goes to the core as one edge.connect (the
// core writes each half on its host); when the core cannot know the worker's address, the store
// asks for it and sends it with the next try. Attaching passes the token once and keeps none.

let core: FakeCore;
let off: () => void;
const initial = useStudio.getState();

beforeEach(async () => {
  useStudio.setState(initial, true);
  core = createFakeCore({
    capsules: [
      { id: 'boss', role: 'orchestrator', position: { x: 0, y: 0 } },
      { id: 'w1', position: { x: 300, y: 0 } },
      { id: '@far/w', name: 'w', runtime: 'far', position: { x: 0, y: 600 }, url: 'http://127.0.0.1:4100' },
    ],
  });
  const plain = core.invoke.bind(core);
  core.invoke = (async (cmd: CommandName, input: never) => {
    const i = input as { target?: string; address?: string; token?: string; url?: string };
    if (cmd === 'edge.connect' && i.target === '@far/w' && !i.address) {
      throw Object.assign(new Error('Where does boss reach w?'), {
        code: 'invalid_input',
        details: { needsAddress: true, port: 4100 },
      });
    }
    if (cmd === 'runtimes.attach') {
      core.calls.push({ cmd, input });
      return { id: 'far', label: 'far', url: i.url, state: 'connected', capsules: 1 };
    }
    return plain(cmd, input);
  }) as FakeCore['invoke'];
  setCoreClient(core);
  off = connectCoreEvents(core, ingest);
  await useStudio.getState().loadFormation();
});

afterEach(() => {
  off();
  setCoreClient(null);
});

describe('runtimes in the store', () => {
  it('asks for the worker address of an edge across hosts and connects with it', async () => {
    await useStudio.getState().connect('boss', '@far/w');
    expect(useStudio.getState().addressAsk).toMatchObject({ source: 'boss', target: '@far/w', port: 4100 });
    await useStudio.getState().connectAcross('boss', '@far/w', '10.0.0.5:4100');
    expect(useStudio.getState().addressAsk).toBeNull();
    expect(core.calls.filter((c) => c.cmd === 'edge.connect').at(-1)?.input).toEqual({
      source: 'boss',
      target: '@far/w',
      address: '10.0.0.5:4100',
    });
    expect(core.view().edges.map((e) => e.id)).toEqual(['boss->@far/w']);
  });

  it('connects capsules of one runtime as an undoable edit', async () => {
    await useStudio.getState().connect('boss', 'w1');
    expect(useStudio.getState().addressAsk).toBeNull();
    expect(useStudio.getState().canUndo).toBe(true);
  });

  it("adds a capsule dropped in a runtime's frame on that runtime, and one dropped elsewhere here", async () => {
    await useStudio.getState().addCapsuleAt('worker', { x: 100, y: 650 });
    await useStudio.getState().addCapsuleAt('worker', { x: 100, y: 300 });
    expect(
      core.calls.filter((c) => c.cmd === 'capsule.add').map((c) => (c.input as { runtime?: string }).runtime ?? 'here'),
    ).toEqual(['far', 'here']);
  });

  it('attaches with the token once and keeps only what the core answers', async () => {
    expect(await useStudio.getState().attachRuntime('http://127.0.0.1:7000', 'capsule_secret_token', 'far')).toBeNull();
    expect(core.calls.find((c) => c.cmd === 'runtimes.attach')?.input).toEqual({
      url: 'http://127.0.0.1:7000',
      token: 'capsule_secret_token',
      label: 'far',
    });
    expect(useStudio.getState().runtimes).toEqual([
      { id: 'far', label: 'far', url: 'http://127.0.0.1:7000', state: 'connected', capsules: 1 },
    ]);
    expect(JSON.stringify(useStudio.getState())).not.toContain('capsule_secret_token');
  });
});
