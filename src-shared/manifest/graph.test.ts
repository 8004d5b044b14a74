import { describe, expect, it } from 'vitest';
import { connectOps, deriveEdges, disconnectOps, type GraphCapsule } from './graph';
import { manifestSchema, type Manifest } from './schema';

function manifest(name: string, extra: Partial<Record<keyof Manifest, unknown>> = {}): Manifest {
  return manifestSchema.parse({
    name,
    version: '1',
    inference: { driver: { artifact: 'capsule/driver-rehearsal' } },
    ...extra,
  });
}
const allowing = (...allow: string[]) => ({ capabilities: { network: { allow } } });

const orch: GraphCapsule = {
  id: 'c-orch',
  name: 'orch',
  manifest: manifest(
    'orch',
    allowing(
      'localhost:52222',
      'http://127.0.0.1:40001/',
      'https://agent.example.com/a2a',
      'api.example.com:443',
      'localhost:9',
    ),
  ),
};
const pinned: GraphCapsule = {
  id: 'c-w1',
  name: 'w1',
  manifest: manifest('w1', { network: { internal_port: 52222 }, exports: { peer_tasks: { accept: true } } }),
};
const running: GraphCapsule = { id: 'c-w2', name: 'w2', manifest: manifest('w2'), port: 40001 };

describe('deriveEdges', () => {
  it('classifies allow entries as capsule, remote or external edges', () => {
    const edges = deriveEdges([orch, pinned, running], [{ id: 'r-1', url: 'https://agent.example.com/a2a/v1' }]);
    expect(edges.map((e) => [e.source, e.target, e.kind, e.allowEntry])).toEqual([
      ['c-orch', 'c-w1', 'capsule', 'localhost:52222'],
      ['c-orch', 'c-w2', 'capsule', 'http://127.0.0.1:40001/'],
      ['c-orch', 'r-1', 'remote', 'https://agent.example.com/a2a'],
      ['c-orch', 'api.example.com:443', 'external', 'api.example.com:443'],
      ['c-orch', 'localhost:9', 'external', 'localhost:9'],
    ]);
    expect(new Set(edges.map((e) => e.id)).size).toBe(edges.length);
  });

  it('prefers the pinned port over the running one, and ignores a capsule allowing itself', () => {
    const moved: GraphCapsule = { ...pinned, port: 40002 };
    const self: GraphCapsule = {
      id: 'c-self',
      name: 'self',
      manifest: manifest('self', { network: { internal_port: 9 }, ...allowing('localhost:9') }),
    };
    const edges = deriveEdges([orch, moved, self], []);
    expect(edges.find((e) => e.allowEntry === 'localhost:52222')?.target).toBe('c-w1');
    expect(edges.filter((e) => e.source === 'c-self').map((e) => e.kind)).toEqual(['external']);
    expect(edges.find((e) => e.source === 'c-orch' && e.allowEntry === 'localhost:9')?.target).toBe('c-self');
  });

  it('draws nothing for capsules without manifests and keeps duplicate entries apart', () => {
    const dup: GraphCapsule = { id: 'd', name: 'd', manifest: manifest('d', allowing('a.com', 'a.com')) };
    const edges = deriveEdges([{ id: 'broken', name: 'broken' }, dup], []);
    expect(edges.map((e) => e.id)).toEqual(['d->a.com', 'd->a.com#1']);
  });
});

describe('connectOps / disconnectOps', () => {
  it('pins a free port on a worker that has none and opens its peer export', () => {
    const fresh: GraphCapsule = { id: 'c-w3', name: 'w3', manifest: manifest('w3') };
    const plan = connectOps(orch, fresh, { freePort: 45555 });
    expect(plan).toEqual({
      orchestrator: [{ op: 'addAllow', entry: 'localhost:45555' }],
      worker: [
        { op: 'setInternalPort', port: 45555 },
        { op: 'setPeerAccept', value: true },
      ],
      port: 45555,
      pinned: true,
    });
  });

  it('uses the pinned port, or the port a running worker holds, and adds nothing already there', () => {
    expect(connectOps(orch, pinned, { freePort: 1 })).toEqual({
      orchestrator: [],
      worker: [],
      port: 52222,
      pinned: false,
    });
    expect(connectOps(orch, running, { freePort: 1 }).worker).toEqual([
      { op: 'setInternalPort', port: 40001 },
      { op: 'setPeerAccept', value: true },
    ]);
  });

  it('takes back every entry reaching the worker, and the export only when no one else reaches it', () => {
    const alsoRunning: GraphCapsule = {
      ...running,
      manifest: manifest('w2', { exports: { peer_tasks: { accept: true } } }),
    };
    const twice: GraphCapsule = {
      ...orch,
      manifest: manifest('orch', allowing('localhost:40001', 'http://[::1]:40001/a2a', 'a.com')),
    };
    expect(disconnectOps(twice, alsoRunning, { capsules: [twice, alsoRunning] })).toEqual({
      orchestrator: [
        { op: 'removeAllow', entry: 'localhost:40001' },
        { op: 'removeAllow', entry: 'http://[::1]:40001/a2a' },
      ],
      worker: [{ op: 'setPeerAccept', value: false }],
    });
    const other: GraphCapsule = {
      id: 'c-other',
      name: 'other',
      manifest: manifest('other', allowing('127.0.0.1:40001')),
    };
    expect(disconnectOps(twice, alsoRunning, { capsules: [twice, alsoRunning, other] }).worker).toEqual([]);
  });
});

describe('an edge to a worker whose pin changed while it runs', () => {
  it('stays an edge to it, on the port its door is on now', () => {
    const orchestrator: GraphCapsule = { id: 'o', name: 'o', manifest: manifest('o', allowing('localhost:40001')) };
    const repinned: GraphCapsule = {
      id: 'w',
      name: 'w',
      manifest: manifest('w', { network: { internal_port: 40009 } }),
      port: 40001,
    };
    expect(deriveEdges([orchestrator, repinned], []).map((e) => [e.target, e.kind])).toEqual([['w', 'capsule']]);
  });
});
