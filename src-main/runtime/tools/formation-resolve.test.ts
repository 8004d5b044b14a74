import { describe, expect, it } from 'vitest';
import { liveFormation, resolveTarget, staticFormation, type FormationMember } from './index';

// How delegate_task reads its `to`: URLs and host:port as peers, anything else by formation name.

describe('resolveTarget', () => {
  it('takes URLs and host:port as peer doors', async () => {
    expect(await resolveTarget('https://agents.example.com/a2a')).toEqual({
      kind: 'door',
      url: 'https://agents.example.com/a2a',
    });
    expect(await resolveTarget('localhost:52222')).toEqual({ kind: 'door', url: 'http://localhost:52222' });
    expect(await resolveTarget('[::1]:52222/x')).toEqual({ kind: 'door', url: 'http://[::1]:52222/x' });
  });

  it('asks the formation for names, and says which names exist when one is unknown', async () => {
    const f = staticFormation({ writer: { kind: 'manifest', manifestPath: '/w/murmur.yaml' } });
    expect(await resolveTarget('writer', f)).toEqual({ kind: 'manifest', manifestPath: '/w/murmur.yaml' });
    expect(await resolveTarget('editor', f)).toEqual({
      kind: 'unknown',
      error: 'unknown capsule "editor": not a URL, and not one of this formation\'s capsules (writer)',
    });
  });
});

describe('liveFormation', () => {
  it('reaches a running member at its door and starts one that is not running as a sub-capsule', async () => {
    const members: FormationMember[] = [
      { names: ['researcher', 'research-capsule'], manifestPath: '/r/murmur.yaml' },
      {
        names: ['writer'],
        manifestPath: '/w/murmur.yaml',
        session: {
          id: 'ses_w',
          url: 'http://127.0.0.1:4000',
          workdir: '/rec/ses_w',
          manifest: { name: 'writer', version: '0.2.0' },
        },
      },
    ];
    const f = liveFormation(() => members);
    expect(await f.resolve('research-capsule')).toEqual({ kind: 'manifest', manifestPath: '/r/murmur.yaml' });
    expect(await f.resolve('writer')).toEqual({
      kind: 'door',
      url: 'http://127.0.0.1:4000',
      capsule: 'writer',
      version: '0.2.0',
      sessionId: 'ses_w',
      workdir: '/rec/ses_w',
    });
    expect(await f.resolve('nobody')).toBeUndefined();
    expect(f.names?.()).toEqual(['researcher', 'research-capsule', 'writer']);
    // Read fresh each time: a member that stops is started as a sub-capsule next time.
    members[1].session = undefined;
    expect(await f.resolve('writer')).toEqual({ kind: 'manifest', manifestPath: '/w/murmur.yaml' });
  });

  it('names a member whose manifest does not load as in the formation but not running, with the reason', async () => {
    const problem = 'line 30, column 1: a [ list is not closed with ]';
    const members: FormationMember[] = [
      { names: ['researcher'], manifestPath: '/r/murmur.yaml', problem },
      { names: ['writer'], manifestPath: '/w/murmur.yaml' },
    ];
    const f = liveFormation(() => members);
    const said = `capsule "researcher" is in the formation but not running, and its manifest does not load (${problem})`;
    expect(await resolveTarget('researcher', f)).toEqual({ kind: 'unavailable', error: said });
    expect(f.names?.()).toEqual(['researcher', 'writer']);
    expect(f.unavailable?.()).toEqual([
      { name: 'researcher', reason: `not running, and its manifest does not load (${problem})` },
    ]);
    // A session that runs is reached at its door whatever its file on disk says now.
    members[0].session = {
      id: 'ses_r',
      url: 'http://127.0.0.1:4001',
      workdir: '/rec/ses_r',
      manifest: { name: 'researcher', version: '0.1.0' },
    };
    expect(await f.resolve('researcher')).toMatchObject({ kind: 'door', url: 'http://127.0.0.1:4001' });
    expect(f.unavailable?.()).toEqual([]);
  });
});
