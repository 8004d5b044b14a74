import type { EventPayload } from '../../src-shared/contract';
import { lazyActions } from './lazyActions';
import type { SliceCreator, StudioState } from './types';
import { TOOL_SERVER_ACTIONS, type ToolServersSlice } from './state/toolServers';
export type { ServerTools, ToolServerPrompt, ToolServersSlice } from './state/toolServers';

// Tool servers (MCP) on the canvas: the nodes (folded from formation.changed with the capsules),
// the tools each one lists (read on demand: starting a server is not free), and the calls going
// through each, from the mcp.called events the core derives from running capsules' traces.

/** How many recent calls a tool server node keeps. */
export const CALLS_KEPT = 6;

export const createToolServersSlice: SliceCreator<ToolServersSlice> = (set, get, api) => ({
  // Listing a server's tools, adding and changing servers load on first use (toolServerActions.ts).
  ...lazyActions(TOOL_SERVER_ACTIONS, () => import('./toolServerActions').then((m) => m.createToolServerActions))(
    set,
    get,
    api,
  ),
  toolServers: {},
  toolServerIds: [],
  serverTools: {},
  toolCalls: {},
  toolServerPrompt: null,
  askToolServer(prompt) {
    set({ toolServerPrompt: prompt });
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
