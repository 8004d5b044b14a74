import { describeError, invoke } from './client';
import type { SliceCreator } from './types';
import type { TOOL_SERVER_ACTIONS, ToolServersSlice } from './state/toolServers';

// A tool server's tool list (read on demand: starting a server is not free), adding a server and
// changing one, each edit one undo step. Loaded on the first call (toolServersSlice.ts names them).

export const createToolServerActions: SliceCreator<Pick<ToolServersSlice, (typeof TOOL_SERVER_ACTIONS)[number]>> = (
  set,
  get,
) => ({
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
