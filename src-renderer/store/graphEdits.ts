import type { CapsuleView } from '../../src-shared/contract';
import { describeError, invoke } from './client';
import type { History, HistoryStep, NodeRef } from './history';
import type { SliceCreator, StudioState } from './types';
import type { GRAPH_EDITS, GraphSlice } from './state/graph';

// The graph's edits beyond adding and moving: connecting, disconnecting, removing (with what
// brings each node back on undo), duplicating, narrowing an edge's tools, adding a remote agent.
// Loaded on the first call (graphSlice.ts names them), with the slice's history and its `edit`.

type Edit = (what: string, run: () => Promise<HistoryStep | null>) => Promise<boolean>;

export const createGraphEdits =
  (history: History, edit: Edit): SliceCreator<Pick<GraphSlice, (typeof GRAPH_EDITS)[number]>> =>
  (set, get) => {
    const kindOf = (c: CapsuleView): 'orchestrator' | 'worker' =>
      c.role === 'orchestrator' ? 'orchestrator' : 'worker';

    async function connectRefs(source: NodeRef, target: NodeRef, announce: boolean, tools?: string[]) {
      const result = await invoke('edge.connect', {
        source: source.id,
        target: target.id,
        ...(tools ? { tools } : {}),
      });
      if (announce || result.pinnedPort) get().notify('info', result.message);
    }

    /** One undoable step: the edge drawn (the core writes both manifests), undone by taking it back. */
    const connectStep = (source: string, target: string) =>
      edit('Could not connect', async () => {
        const src = history.ref(source);
        const dst = history.ref(target);
        await connectRefs(src, dst, true);
        return {
          label: 'connect',
          undo: async () => void (await invoke('edge.disconnect', { source: src.id, target: dst.id })),
          redo: () => connectRefs(src, dst, false),
        };
      });

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
      async connect(source, target) {
        const s = get();
        const from = s.capsules[source];
        if (!from) return;
        if (s.toolServers[target]) {
          // Any capsule may be given a tool server's tools: the edge is its manifest entry.
          if (s.edgeViews.some((e) => e.source === source && e.target === target)) return;
          await connectStep(source, target);
          return;
        }
        if (from.role !== 'orchestrator') {
          s.notify('warning', `${from.name} is not an orchestrator: only orchestrators delegate to other capsules.`);
          return;
        }
        if (s.edgeViews.some((e) => e.source === source && e.target === target)) return;
        // Across hosts each half is written on its own host (not one undo step here).
        if (s.capsules[target] && s.capsules[target].runtime !== from.runtime) return s.connectAcross(source, target);
        await connectStep(source, target);
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
              gone.flatMap((x) =>
                [...x.r.tools].map(([src, t]): [string, string[]] => [`${src.id}\0${x.r.ref.id}`, t]),
              ),
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
