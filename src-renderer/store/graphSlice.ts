import { applyEdgeChanges, applyNodeChanges, type XYPosition } from '@xyflow/react';
import type { CapsuleView } from '../../src-shared/contract';
import { describeError, invoke } from './client';
import { createHistory, type HistoryStep, type NodeRef } from './history';
import { runtimeAt } from './runtimeFrames';
import type { SliceCreator, StudioState } from './types';
import type { GraphSlice } from './state/graph';
export type { PendingRemoval, GraphSlice } from './state/graph';

export const createGraphSlice: SliceCreator<GraphSlice> = (set, get) => {
  const history = createHistory(() => set({ canUndo: history.canUndo, canRedo: history.canRedo }));

  /** Runs one edit; a failure becomes a notice and records nothing. */
  async function edit(what: string, run: () => Promise<HistoryStep | null>): Promise<boolean> {
    try {
      const step = await run();
      if (step) history.push(step);
      return true;
    } catch (err) {
      get().notify('error', `${what}: ${describeError(err)}`);
      return false;
    }
  }

  const kindOf = (c: CapsuleView): 'orchestrator' | 'worker' => (c.role === 'orchestrator' ? 'orchestrator' : 'worker');

  async function connectRefs(source: NodeRef, target: NodeRef, announce: boolean, tools?: string[]) {
    const result = await invoke('edge.connect', { source: source.id, target: target.id, ...(tools ? { tools } : {}) });
    if (announce || result.pinnedPort) get().notify('info', result.message);
  }

  /** Snapshot of a capsule sufficient to bring it back: manifest text, place, incoming edges. */
  function capsuleRestorer(c: CapsuleView, s: StudioState) {
    const ref = history.ref(c.id);
    const incoming = s.edgeViews.filter((e) => e.target === c.id).map((e) => history.ref(e.source));
    // Its own allow list comes back with the manifest; the workers' exports may have gone since.
    const outgoing = s.edgeViews
      .filter((e) => e.source === c.id && e.targetKind !== 'external')
      .map((e) => history.ref(e.target));
    return {
      ref,
      tools: new Map<NodeRef, string[]>(),
      async restore() {
        // A runtime's capsule comes back on its own host.
        const view = await invoke('capsule.add', {
          kind: kindOf(c),
          name: c.name,
          position: c.position,
          ...(c.runtime ? { runtime: c.runtime } : {}),
        });
        history.rebind(ref, view.id);
        await invoke('manifest.write', { id: view.id, source: c.manifestSource });
      },
      links: [...incoming.map((src) => [src, ref] as const), ...outgoing.map((dst) => [ref, dst] as const)],
      remove: () => invoke('capsule.remove', { id: ref.id, deleteManifest: true }),
    };
  }

  function remoteRestorer(id: string, s: StudioState) {
    const r = s.remotes[id];
    const ref = history.ref(id);
    const incoming = s.edgeViews.filter((e) => e.target === id).map((e) => history.ref(e.source));
    return {
      ref,
      async restore() {
        const view = await invoke('remote.add', { url: r.url, position: r.position });
        history.rebind(ref, view.id);
      },
      links: incoming.map((src) => [src, ref] as const),
      tools: new Map<NodeRef, string[]>(),
      remove: () => invoke('remote.remove', { id: ref.id }),
    };
  }

  /** A tool server comes back with its definition, place and edges, each edge with its own tools. */
  function toolServerRestorer(id: string, s: StudioState) {
    const t = s.toolServers[id];
    const { id: _id, name, position, unplaced: _u, derived, ...server } = t;
    const ref = history.ref(id);
    const incoming = s.edgeViews.filter((e) => e.target === id);
    const tools = new Map(incoming.flatMap((e) => (e.tools ? [[history.ref(e.source), e.tools] as const] : [])));
    return {
      ref,
      async restore() {
        // A derived server (named only by manifests) comes back through its edges alone.
        if (!derived) await invoke('mcp.addServer', { name, server, position });
      },
      links: incoming.map((e) => [history.ref(e.source), ref] as const),
      tools,
      remove: () => invoke('mcp.removeServer', { id: ref.id }),
    };
  }

  return {
    flowNodes: [],
    flowEdges: [],
    selectedId: null,
    pendingRemoval: null,
    remotePrompt: null,
    canUndo: false,
    canRedo: false,
    onNodesChange(changes) {
      set((s) => {
        let selectedId = s.selectedId;
        for (const c of changes) {
          if (c.type === 'select' && c.selected && !c.id.startsWith('external:')) selectedId = c.id;
        }
        return { flowNodes: applyNodeChanges(changes, s.flowNodes), selectedId };
      });
    },
    onEdgesChange(changes) {
      set((s) => ({ flowEdges: applyEdgeChanges(changes, s.flowEdges) }));
    },
    select(id) {
      // Nothing selected means no node drawn selected either (Close details); unselected nodes keep their identity.
      if (id === null && get().flowNodes.some((n) => n.selected))
        set((s) => ({
          selectedId: null,
          flowNodes: s.flowNodes.map((n) => (n.selected ? { ...n, selected: false } : n)),
        }));
      else set({ selectedId: id });
    },
    async addCapsuleAt(kind, position) {
      // Dropped inside a runtime's frame: the capsule is made on that host.
      const runtime = runtimeAt(get(), position);
      const where = runtime ? { runtime } : {};
      await edit(`Could not add the ${kind}`, async () => {
        const view = await invoke('capsule.add', { kind, position, ...where });
        set({ selectedId: view.id });
        const ref = history.ref(view.id);
        return {
          label: `add ${view.name}`,
          undo: async () => void (await invoke('capsule.remove', { id: ref.id, deleteManifest: true })),
          redo: async () =>
            history.rebind(ref, (await invoke('capsule.add', { kind, name: view.name, position, ...where })).id),
        };
      });
    },
    addRemoteAt(url, position) {
      return edit('Could not add the remote agent', async () => {
        const view = await invoke('remote.add', { url, position });
        if (view.error) get().notify('warning', `Agent card of ${url}: ${view.error}`);
        const ref = history.ref(view.id);
        return {
          label: `add remote ${url}`,
          undo: async () => void (await invoke('remote.remove', { id: ref.id })),
          redo: async () => history.rebind(ref, (await invoke('remote.add', { url, position })).id),
        };
      });
    },
    async moveNodes(moves) {
      const real = moves.filter((m) => !m.id.startsWith('external:') && (m.from.x !== m.to.x || m.from.y !== m.to.y));
      if (real.length === 0) return;
      const move = (ref: NodeRef, position: XYPosition) =>
        get().remotes[ref.id]
          ? invoke('remote.move', { id: ref.id, position })
          : get().toolServers[ref.id]
            ? invoke('mcp.moveServer', { id: ref.id, position })
            : invoke('capsule.move', { id: ref.id, position });
      await edit('Could not save the new position', async () => {
        const refs = real.map((m) => ({ ...m, ref: history.ref(m.id) }));
        await Promise.all(refs.map((m) => move(m.ref, m.to)));
        return {
          label: 'move',
          undo: async () => void (await Promise.all(refs.map((m) => move(m.ref, m.from)))),
          redo: async () => void (await Promise.all(refs.map((m) => move(m.ref, m.to)))),
        };
      });
    },
    async connect(source, target) {
      const s = get();
      const from = s.capsules[source];
      if (!from) return;
      if (s.toolServers[target]) {
        // Any capsule may be given a tool server's tools: the edge is its manifest entry.
        if (s.edgeViews.some((e) => e.source === source && e.target === target)) return;
        await edit('Could not connect', async () => {
          const src = history.ref(source);
          const dst = history.ref(target);
          await connectRefs(src, dst, true);
          return {
            label: 'connect',
            undo: async () => void (await invoke('edge.disconnect', { source: src.id, target: dst.id })),
            redo: () => connectRefs(src, dst, false),
          };
        });
        return;
      }
      if (from.role !== 'orchestrator') {
        s.notify('warning', `${from.name} is not an orchestrator: only orchestrators delegate to other capsules.`);
        return;
      }
      if (s.edgeViews.some((e) => e.source === source && e.target === target)) return;
      // Across hosts each half is written on its own host (not one undo step here).
      if (s.capsules[target] && s.capsules[target].runtime !== from.runtime) return s.connectAcross(source, target);
      await edit('Could not connect', async () => {
        const src = history.ref(source);
        const dst = history.ref(target);
        await connectRefs(src, dst, true);
        return {
          label: 'connect',
          undo: async () => void (await invoke('edge.disconnect', { source: src.id, target: dst.id })),
          redo: () => connectRefs(src, dst, false),
        };
      });
    },
    async disconnect(edgeIds) {
      const views = get().edgeViews.filter((e) => edgeIds.includes(e.id));
      for (const e of views) {
        await edit('Could not remove the connection', async () => {
          const src = history.ref(e.source);
          const dst = history.ref(e.target);
          const result = await invoke('edge.disconnect', { source: src.id, target: dst.id });
          get().notify('info', result.message);
          return {
            label: 'disconnect',
            // An edge to a tool server comes back narrowed as it was.
            undo: () => connectRefs(src, dst, false, e.tools),
            redo: async () => void (await invoke('edge.disconnect', { source: src.id, target: dst.id })),
          };
        });
      }
    },
    askRemoteUrl(position) {
      set({ remotePrompt: position });
    },
    askRemoval(nodeIds) {
      const ids = nodeIds.filter((id) => !id.startsWith('external:'));
      if (ids.length > 0) set({ pendingRemoval: { nodeIds: ids } });
    },
    cancelRemoval() {
      set({ pendingRemoval: null });
    },
    async confirmRemoval() {
      const pending = get().pendingRemoval;
      set({ pendingRemoval: null });
      if (!pending) return;
      // One confirm, one undo step: every node is snapshotted before the first goes, so edges
      // between removed nodes come back too.
      const s = get();
      const targets = pending.nodeIds.filter((id) => s.capsules[id] || s.remotes[id] || s.toolServers[id]);
      const restorers = targets.map((id) => ({
        id,
        name: s.capsules[id]?.name ?? s.remotes[id]?.card?.name ?? s.toolServers[id]?.name ?? id,
        r: s.capsules[id]
          ? capsuleRestorer(s.capsules[id], s)
          : s.toolServers[id]
            ? toolServerRestorer(id, s)
            : remoteRestorer(id, s),
      }));
      const gone: typeof restorers = [];
      for (const x of restorers) {
        try {
          await x.r.remove();
          gone.push(x);
          if (get().selectedId === x.id) set({ selectedId: null });
        } catch (err) {
          get().notify('error', `Could not remove ${x.name}: ${describeError(err)}`);
        }
      }
      if (gone.length === 0) return;
      history.push({
        label: gone.length === 1 ? `remove ${gone[0].name}` : `remove ${gone.length} nodes`,
        async undo() {
          for (const x of gone) await x.r.restore();
          // An edge between two removed nodes is in both their snapshots: connect it once.
          const done = new Set<string>();
          const tools = new Map<string, string[]>(
            gone.flatMap((x) => [...x.r.tools].map(([src, t]): [string, string[]] => [`${src.id}\0${x.r.ref.id}`, t])),
          );
          for (const [from, to] of gone.flatMap((x) => x.r.links)) {
            const key = `${from.id}\0${to.id}`;
            if (done.has(key)) continue;
            done.add(key);
            // A node on the other end may have gone since: the rest still come back.
            await connectRefs(from, to, false, tools.get(key)).catch((err: unknown) =>
              get().notify('warning', `An edge did not come back: ${describeError(err)}`),
            );
          }
        },
        async redo() {
          for (const x of gone) await x.r.remove();
        },
      });
    },
    async duplicateCapsule(id) {
      const c = get().capsules[id];
      if (!c) return;
      await edit(`Could not duplicate ${c.name}`, async () => {
        const original = history.ref(id);
        const view = await invoke('capsule.duplicate', { id });
        set({ selectedId: view.id });
        const ref = history.ref(view.id);
        get().notify('info', `Duplicated ${c.name} as ${view.name} (same manifest; no edge leads to it yet).`);
        return {
          label: `duplicate ${c.name}`,
          undo: async () => void (await invoke('capsule.remove', { id: ref.id, deleteManifest: true })),
          redo: async () =>
            history.rebind(
              ref,
              (await invoke('capsule.duplicate', { id: original.id, name: view.name, position: view.position })).id,
            ),
        };
      });
    },
    async undo() {
      try {
        await history.undo();
      } catch (err) {
        get().notify('error', `Undo failed: ${describeError(err)}`);
      }
    },
    async redo() {
      try {
        await history.redo();
      } catch (err) {
        get().notify('error', `Redo failed: ${describeError(err)}`);
      }
    },
    resetHistory() {
      history.clear();
    },
    recordStep: edit,
    async setEdgeTools(edgeId, tools) {
      const e = get().edgeViews.find((x) => x.id === edgeId);
      if (!e || e.targetKind !== 'tool_server') return;
      const before = e.tools ?? null;
      await edit('Could not change the tools', async () => {
        const src = history.ref(e.source);
        const dst = history.ref(e.target);
        await invoke('edge.setTools', { source: src.id, target: dst.id, tools });
        return {
          label: 'tools',
          undo: async () => void (await invoke('edge.setTools', { source: src.id, target: dst.id, tools: before })),
          redo: async () => void (await invoke('edge.setTools', { source: src.id, target: dst.id, tools })),
        };
      });
    },
  };
};
