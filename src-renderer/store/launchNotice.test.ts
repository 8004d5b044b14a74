import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandName } from '../../src-shared/contract';
import { setCoreClient } from './client';
import { createFakeCore, type FakeCore } from './fakeCore';
import { useStudio } from './index';

// A refused launch or restart: the core's message already names the capsule and says why, so the
// notice is that sentence once, not wrapped in a second "Could not launch writer: …".

let core: FakeCore;
const initial = useStudio.getState();

beforeEach(async () => {
  useStudio.setState(initial, true);
  core = createFakeCore({ capsules: [{ id: 'writer', position: { x: 0, y: 0 } }] });
  const plain = core.invoke.bind(core);
  core.invoke = (async (cmd: CommandName, input: never) => {
    if (cmd === 'capsule.launch')
      throw Object.assign(new Error('Cannot launch writer: port 4100 is already in use'), { code: 'port_taken' });
    if (cmd === 'capsule.restart')
      throw Object.assign(new Error('Cannot restart writer: line 3: a quote is not closed'), {
        code: 'manifest_invalid',
      });
    return plain(cmd, input);
  }) as FakeCore['invoke'];
  setCoreClient(core);
  await useStudio.getState().loadFormation();
});

afterEach(() => useStudio.setState(initial, true));

const messages = () => useStudio.getState().notices.map((n) => n.message);

describe('a refused launch or restart', () => {
  it('says the core sentence once', async () => {
    await useStudio.getState().launchCapsule('writer');
    expect(messages()).toEqual(['Cannot launch writer: port 4100 is already in use']);
  });

  it('says the restart refusal once', async () => {
    await useStudio.getState().restartCapsule('writer');
    expect(messages()).toEqual(['Cannot restart writer: line 3: a quote is not closed']);
  });
});
