import { applyEdgeChanges, applyNodeChanges, type XYPosition } from '@xyflow/react';
import { describeError, invoke } from './client';
import { createHistory, type HistoryStep, type NodeRef } from './history';
import { lazyActions } from './lazyActions';
import { runtimeAt } from './runtimeFrames';
import type { SliceCreator } from './types';
import { GRAPH_EDITS, type GraphSlice } from './state/graph';
export type { PendingRemoval, GraphSlice } from './state/graph';

export const createGraphSlice: SliceCreator<GraphSlice> = (set, get, api) => {
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

  return {
    // Connecting, removing, duplicating and the like load on the first edit (graphEdits.ts).
    ...lazyActions(GRAPH_EDITS, () => import('./graphEdits').then((m) => m.createGraphEdits(history, edit)))(
      set,
      get,
      api,
    ),
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
  };
};
