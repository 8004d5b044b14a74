import {
  diffFormation,
  type CapsuleView,
  type CommandInput,
  type CommandName,
  type CoreClient,
  type EdgeView,
  type EventName,
  type EventPayload,
  type FormationView,
} from '../../src-shared/contract';

// An in-memory core for store tests: enough of the contract to drive graph edits, with every
// call recorded. It emits formation.changed after each edit, as the real core does: what changed,
// numbered (diffFormation, the core's own).

export interface FakeCore extends CoreClient {
  calls: { cmd: CommandName; input: unknown }[];
  view(): FormationView;
}

export function createFakeCore(initial: { capsules?: Partial<CapsuleView>[] } = {}): FakeCore {
  const capsules = new Map<string, CapsuleView>();
  const edges: EdgeView[] = [];
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const calls: { cmd: CommandName; input: unknown }[] = [];
  let seq = 0;

  const capsule = (p: Partial<CapsuleView> & { id: string }): CapsuleView => ({
    name: p.id,
    manifestPath: `capsules/${p.id}.yaml`,
    position: { x: 0, y: 0 },
    role: 'worker',
    driver: 'rehearsal',
    model: 'rehearsal',
    rehearsal: true,
    port: null,
    manifestSource: `name: ${p.name ?? p.id}\n`,
    manifestHash: `h${seq++}`,
    issues: [],
    state: 'stopped',
    queued: 0,
    tasks: 0,
    acceptsPeerTasks: false,
    allow: [],
    ...p,
  });
  for (const c of initial.capsules ?? []) capsules.set(c.id!, capsule(c as CapsuleView));

  let version = 1;
  const current = (): FormationView => ({
    dir: '/ws',
    name: 'ws',
    capsules: [...capsules.values()],
    remotes: [],
    edges: [...edges],
    issues: [],
    version,
  });
  let sent = current();
  const view = () => ({ ...current(), version });
  const emit = <E extends EventName>(event: E, payload: EventPayload<E>) =>
    listeners.get(event)?.forEach((l) => l(payload));
  const changed = () => {
    const now = current();
    const change = diffFormation(sent, now, version + 1);
    if (!change) return;
    version = change.version;
    sent = now;
    emit('formation.changed', change);
  };
  const need = (id: string) => {
    const c = capsules.get(id);
    if (!c) throw Object.assign(new Error(`no capsule ${id}`), { code: 'not_found' });
    return c;
  };

  const handlers: { [K in CommandName]?: (input: any) => unknown } = {
    'formation.get': () => view(),
    'capsule.add': (i: CommandInput<'capsule.add'>) => {
      let name = i.name ?? i.kind;
      while (!i.name && capsules.has(name)) name = `${i.kind}-${++seq}`;
      if (capsules.has(name)) throw Object.assign(new Error(`${name} exists`), { code: 'conflict' });
      const c = capsule({ id: name, name, role: i.kind, position: i.position });
      capsules.set(name, c);
      return c;
    },
    'capsule.remove': (i: CommandInput<'capsule.remove'>) => {
      need(i.id);
      capsules.delete(i.id);
      for (let k = edges.length - 1; k >= 0; k--)
        if (edges[k].source === i.id || edges[k].target === i.id) edges.splice(k, 1);
    },
    'capsule.duplicate': (i: CommandInput<'capsule.duplicate'>) => {
      const from = need(i.id);
      let name = i.name ?? `${from.name}-copy`;
      for (let n = 2; !i.name && capsules.has(name); n++) name = `${from.name}-copy-${n}`;
      if (capsules.has(name)) throw Object.assign(new Error(`${name} exists`), { code: 'conflict' });
      const c = { ...from, id: name, name, position: i.position ?? { x: from.position.x + 280, y: from.position.y } };
      capsules.set(name, c);
      return c;
    },
    'capsule.move': (i: CommandInput<'capsule.move'>) =>
      void capsules.set(i.id, { ...need(i.id), position: i.position }),
    'edge.connect': (i: CommandInput<'edge.connect'>) => {
      need(i.source);
      const edge: EdgeView = {
        id: `${i.source}->${i.target}`,
        source: i.source,
        target: i.target,
        targetKind: 'capsule',
        address: `localhost:${4000 + edges.length}`,
      };
      edges.push(edge);
      return { edge, message: 'connected' };
    },
    'edge.disconnect': (i: CommandInput<'edge.disconnect'>) => {
      const k = edges.findIndex((e) => e.source === i.source && e.target === i.target);
      if (k < 0) throw Object.assign(new Error('no such edge'), { code: 'not_found' });
      edges.splice(k, 1);
      return { revokedExport: true, message: 'disconnected' };
    },
    'manifest.write': (i: CommandInput<'manifest.write'>) => {
      const c = need(i.id);
      if (i.expected && i.expected !== c.manifestHash)
        throw Object.assign(new Error('changed on disk'), { code: 'conflict', details: { hash: c.manifestHash } });
      const hash = `h${seq++}`;
      capsules.set(i.id, { ...c, manifestSource: i.source, manifestHash: hash });
      return { hash, issues: [] };
    },
  };

  return {
    calls,
    view,
    async invoke(cmd, input) {
      calls.push({ cmd, input });
      const h = handlers[cmd];
      if (!h) throw Object.assign(new Error(`fake core has no ${cmd}`), { code: 'unknown_command' });
      const out = h(input);
      if (cmd !== 'formation.get') changed();
      return out as never;
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as (p: unknown) => void);
      return () => set.delete(listener as (p: unknown) => void);
    },
    dispose() {
      listeners.clear();
    },
  };
}
