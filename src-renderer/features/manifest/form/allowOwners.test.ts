import { describe, expect, it } from 'vitest';
import { allowOwners, portOfUrl } from './allowOwners';

describe('which allow entries edges own', () => {
  const peers = [
    { id: 'orch', name: 'orch' },
    { id: 'w1', name: 'worker-one', pinnedPort: 47311 },
    { id: 'w2', name: 'worker-two', runningPort: 50123 },
  ];
  const remotes = [{ id: 'r1', url: 'https://agents.example.com/a2a/v1', name: 'Far agent' }];

  it('an entry naming a capsule port or covering a remote is an edge; others are plain addresses', () => {
    const entries = [
      'localhost:47311',
      '127.0.0.1:50123',
      'https://agents.example.com/a2a',
      'api.example.com',
      'localhost:9',
    ];
    expect(allowOwners(entries, 'orch', peers, remotes)).toEqual([
      { kind: 'capsule', name: 'worker-one' },
      { kind: 'capsule', name: 'worker-two' },
      { kind: 'remote', name: 'Far agent' },
      null,
      null,
    ]);
  });

  it('the capsule itself is no edge, and odd entries give null rather than a throw', () => {
    expect(allowOwners(['localhost:47311'], 'w1', peers, [])).toEqual([null]);
    expect(allowOwners(['', '::::', 'http://[bad'], 'orch', peers, remotes)).toEqual([null, null, null]);
  });

  it('reads a door URL port', () => {
    expect(portOfUrl('http://127.0.0.1:5123/')).toBe(5123);
    expect(portOfUrl('nonsense')).toBeUndefined();
    expect(portOfUrl(undefined)).toBeUndefined();
  });
});
