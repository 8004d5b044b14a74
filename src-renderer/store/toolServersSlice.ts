import type { EventPayload } from '../../src-shared/contract';
import { describeError, invoke } from './client';
import type { SliceCreator, StudioState } from './types';
import type { ToolServersSlice } from './state/toolServers';
export type { ServerTools, ToolServerPrompt, ToolServersSlice } from './state/toolServers';

// Tool servers (MCP) on the canvas: the nodes (folded from formation.changed with the capsules),
// the tools each one lists (read on demand: starting a server is not free), and the calls going
// through each, from the mcp.called events the core derives from running capsules' traces.

/** How many recent calls a tool server node keeps. */
export const CALLS_KEPT = 6;

export const createToolServersSlice: SliceCreator<ToolServersSlice> = (set, get) => ({
  toolServers: {},
  toolServerIds: [],
  serverTools: {},
  toolCalls: {},
  toolServerPrompt: null,
  askToolServer(prompt) {
    set({ toolServerPrompt: prompt });
  },
  async loadServerTools(id) {
    set((s) => ({ serverTools: { ...s.serverTools, [id]: { ...s.serverTools[id], loading: true } } }));
    try {
      const { tools } = await invoke('mcp.listTools', { id });
      set((s) => ({ serverTools: { ...s.serverTools, [id]: { loading: false, tools } } }));
    } catch (err) {
      set((s) => ({ serverTools: { ...s.serverTools, [id]: { loading: false, error: describeError(err) } } }));
    }
  },
  async addToolServer(name, server, position) {
    return get().recordStep(`Could not add the tool server ${name}`, async () => {
      const view = await invoke('mcp.addServer', { name, server, position });
      set({ selectedId: view.id });
      return {
        label: `add tool server ${name}`,
        undo: async () => void (await invoke('mcp.removeServer', { id: view.id })),
        redo: async () => void (await invoke('mcp.addServer', { name, server, position })),
      };
    });
  },
  async updateToolServer(id, server) {
    const before = get().toolServers[id];
    if (!before) return false;
    const { id: _id, name: _name, position: _p, unplaced: _u, derived: _d, ...old } = before;
    return get().recordStep(`Could not change the tool server ${before.name}`, async () => {
      const { updated } = await invoke('mcp.updateServer', { id, server });
      get().notify(
        'info',
        `Saved ${before.name}${updated.length ? `; updated in ${updated.map((c) => get().capsules[c]?.name ?? c).join(', ')}` : ''}.`,
      );
      set((s) => ({ serverTools: { ...s.serverTools, [id]: { loading: false } } }));
      return {
        label: `edit tool server ${before.name}`,
        undo: async () => void (await invoke('mcp.updateServer', { id, server: old })),
        redo: async () => void (await invoke('mcp.updateServer', { id, server })),
      };
    });
  },
});

/** Folds mcp.called: each call in its latest state, the newest few per server. */
export function foldToolCalls(s: StudioState, events: EventPayload<'mcp.called'>[]): Partial<StudioState> {
  if (!events.length) return {};
  const next = { ...s.toolCalls };
  for (const e of events) {
    for (const call of e.calls) {
      const key = call.server.toLowerCase();
      const others = (next[key] ?? []).filter(
        (c) => !(c.sessionId === call.sessionId && c.callId === call.callId && c.taskId === call.taskId),
      );
      next[key] = [call, ...others].sort((a, b) => b.at - a.at).slice(0, CALLS_KEPT);
    }
  }
  return { toolCalls: next };
}
