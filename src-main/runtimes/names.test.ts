import { describe, expect, it } from 'vitest';
import { LAST_OUTPUT_CHARS, splitRuntimeId, type CapsuleView, type EdgeView } from '../../src-shared/contract';
import { deriveAddress } from './cross-edge';
import { createNamer, doorPort, hostPort, linkAcross } from './names';
import { relayEvent, relayOutput } from './relay';

// How a runtime's formation is named here, which allow entries are edges across hosts, and which
// worker address an edge across hosts writes (or asks for).

const capsule = (over: Partial<CapsuleView>): CapsuleView => ({
  id: 'w',
  name: 'w',
  manifestPath: 'w.yaml',
  position: { x: 10, y: 20 },
  role: 'worker',
  driver: 'rehearsal',
  model: null,
  rehearsal: true,
  port: null,
  manifestSource: '',
  manifestHash: '',
  issues: [],
  state: 'idle',
  queued: 0,
  tasks: 0,
  acceptsPeerTasks: false,
  allow: [],
  ...over,
});

describe('runtime names', () => {
  it('namespaces ids, tags the runtime, shifts positions and takes the shift back', () => {
    const n = createNamer('host-b', { x: 0, y: 500 });
    const c = n.capsule(capsule({}));
    expect(c).toMatchObject({ id: '@host-b/w', runtime: 'host-b', position: { x: 10, y: 520 } });
    expect(splitRuntimeId(c.id)).toEqual({ runtime: 'host-b', id: 'w' });
    expect(splitRuntimeId('writer')).toBeUndefined();
    expect(n.toRuntime(c.position)).toEqual({ x: 10, y: 20 });
    const edge: EdgeView = {
      id: 'o->external:x',
      source: 'o',
      target: 'external:x',
      targetKind: 'external',
      address: 'x',
    };
    expect(n.edge(edge)).toMatchObject({ source: '@host-b/o', target: 'external:x' });
  });

  it('draws an allow entry naming another runtime door as an edge to that capsule', () => {
    expect(hostPort('http://127.0.0.1:4000')).toBe('127.0.0.1:4000');
    expect(hostPort('LOCALHOST:4000')).toBe('localhost:4000');
    expect(doorPort(capsule({ url: 'http://127.0.0.1:4555' }))).toBe(4555);
    const edges: EdgeView[] = [
      {
        id: 'a',
        source: '@a/o',
        target: 'external:http://127.0.0.1:4000',
        targetKind: 'external',
        address: 'http://127.0.0.1:4000',
      },
      { id: 'b', source: '@a/o', target: 'external:elsewhere:1', targetKind: 'external', address: 'elsewhere:1' },
    ];
    const out = linkAcross(edges, new Map([['127.0.0.1:4000', '@b/w']]));
    expect(out[0]).toMatchObject({ target: '@b/w', targetKind: 'capsule' });
    expect(out[1]).toBe(edges[1]);
  });

  it('derives the worker address when both hosts are known, and asks when it cannot be', () => {
    const w = (url?: string) => ({ capsule: capsule({ port: 4100 }), ...(url ? { url } : {}) });
    expect(deriveAddress(w('http://127.0.0.1:7000'), w('http://127.0.0.1:7001'), 4100)).toBe('http://127.0.0.1:4100');
    expect(deriveAddress(w(), w('http://localhost:7001'), 4100)).toBe('http://127.0.0.1:4100');
    expect(deriveAddress(w('http://10.0.0.4:7000'), w('http://10.0.0.5:7001'), 4100)).toBe('http://10.0.0.5:4100');
    // The worker's runtime is reached over loopback from here, the orchestrator is on another host.
    expect(deriveAddress(w('http://10.0.0.4:7000'), w('http://127.0.0.1:7001'), 4100)).toBeUndefined();
    // Behind a TLS proxy: the proxy's host is not where the worker's door is.
    expect(deriveAddress(w('http://10.0.0.4:7000'), w('https://studio.example.com'), 4100)).toBeUndefined();
    // A worker here, an orchestrator on another host: where that host reaches this one is not known.
    expect(deriveAddress(w('http://10.0.0.4:7000'), w(), 4100)).toBeUndefined();
  });

  it("keeps a runtime capsule's last task only when it has the contract's shape and size", () => {
    const scope = { namer: createNamer('host-b', { x: 0, y: 0 }), remember: () => undefined };
    const last = { taskId: 'tsk_1', state: 'TASK_STATE_COMPLETED' as const, text: 'Draft.' };
    const state = (lastTask: unknown) =>
      relayEvent('capsule.stateChanged', { id: 'w', state: 'idle', queued: 0, tasks: 1, lastTask }, scope, 'host b')
        ?.payload as Record<string, unknown>;
    expect(state(last).lastTask).toEqual(last);
    expect(scope.namer.capsule(capsule({ lastTask: last })).lastTask).toEqual(last);
    for (const bad of [
      { ...last, text: 'x'.repeat(LAST_OUTPUT_CHARS + 1) },
      { ...last, state: 'DONE' },
      { ...last, secret: 'more' },
      'Draft.',
    ]) {
      expect(state(bad)).not.toHaveProperty('lastTask');
      expect(scope.namer.capsule(capsule({ lastTask: bad as never }))).not.toHaveProperty('lastTask');
    }
  });

  it("relays a runtime's events under its ids and keeps its formation and exposures on its host", () => {
    const seen: unknown[] = [];
    const scope = { namer: createNamer('host-b', { x: 0, y: 0 }), remember: (s: unknown) => seen.push(s) };
    const sid = `ses_${'a'.repeat(32)}`;
    expect(
      relayEvent('task.updated', { capsuleId: 'w', sessionId: sid, task: { id: 'tsk_1' } }, scope, 'host b'),
    ).toEqual({ event: 'task.updated', payload: { capsuleId: '@host-b/w', sessionId: sid, task: { id: 'tsk_1' } } });
    expect(seen).toEqual([sid]);
    expect(relayEvent('notice.raised', { level: 'info', message: 'hello' }, scope, 'host b')?.payload).toEqual({
      level: 'info',
      message: 'host b: hello',
    });
    // The runtime's gateway events come tagged with it, its capsules named as here; a malformed one is dropped.
    expect(relayEvent('exposure.changed', { exposures: [] }, scope, 'host b')).toBeUndefined();
    const gateway = { running: true, host: '127.0.0.1', port: 1, trustProxy: false, loopback: true };
    expect(
      relayEvent('exposure.changed', { gateway, exposures: [{ capsuleId: 'w', tokenId: 'k' }] }, scope, 'host b'),
    ).toEqual({
      event: 'exposure.changed',
      payload: { gateway, exposures: [{ capsuleId: '@host-b/w', tokenId: 'k' }], runtime: 'host-b' },
    });
    const entry = {
      time: 't',
      remote: '127.0.0.1',
      tokenId: null,
      capsule: 'w',
      method: 'GetTask',
      status: 401,
      outcome: 'unauthorized',
      durationMs: 1,
    };
    expect(relayEvent('exposure.accessed', { entry }, scope, 'host b')).toEqual({
      event: 'exposure.accessed',
      payload: { entry: { ...entry, capsule: '@host-b/w' }, runtime: 'host-b' },
    });
    expect(relayEvent('exposure.accessed', { entry: { ...entry, capsule: null } }, scope, 'host b')?.payload).toEqual({
      entry: { ...entry, capsule: null },
      runtime: 'host-b',
    });
    expect(relayOutput('expose.accessLog', [entry], scope)).toEqual([{ ...entry, capsule: '@host-b/w' }]);
    // A fork made on the runtime is its session; family members name their capsules as here.
    const fork = `ses_${'f'.repeat(32)}`;
    expect(
      relayOutput('sessions.fork', { sessionId: fork, taskId: 't', state: 'TASK_STATE_WORKING', answer: null }, scope),
    ).toMatchObject({ sessionId: fork });
    expect(seen).toContain(fork);
    expect(relayOutput('sessions.family', { ancestors: [{ id: sid, capsuleId: 'w' }], forks: [] }, scope)).toEqual({
      ancestors: [{ id: sid, capsuleId: '@host-b/w' }],
      forks: [],
    });
    expect(relayEvent('runtimes.changed', { runtimes: [] }, scope, 'host b')).toBeUndefined();
    expect(relayEvent('capsule.stateChanged', 'not an object', scope, 'host b')).toBeUndefined();
  });
});
