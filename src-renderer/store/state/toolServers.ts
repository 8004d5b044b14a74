import type { ToolCallView, ToolServerDefinition, ToolServerTool, ToolServerView } from '../../../src-shared/contract';

// The shape of the store's tool servers (MCP) slice (see toolServersSlice.ts).

export interface ServerTools {
  loading: boolean;
  tools?: ToolServerTool[];
  error?: string;
}

/** The Add / Edit tool server dialog: where a new one goes, or which one is edited. */
export type ToolServerPrompt = { position: { x: number; y: number } } | { id: string };

export interface ToolServersSlice {
  toolServers: Record<string, ToolServerView>;
  toolServerIds: string[];
  /** Tools listed per tool server id. */
  serverTools: Record<string, ServerTools>;
  /** Recent calls per tool server name (lowercase), newest first. */
  toolCalls: Record<string, ToolCallView[]>;
  toolServerPrompt: ToolServerPrompt | null;
  askToolServer(prompt: ToolServerPrompt | null): void;
  loadServerTools(id: string): Promise<void>;
  /** Adds a tool server node (one undo step). */
  addToolServer(name: string, server: ToolServerDefinition, position: { x: number; y: number }): Promise<boolean>;
  /** Changes a tool server's definition, in formation.yaml and in every capsule with an edge to it. */
  updateToolServer(id: string, server: ToolServerDefinition): Promise<boolean>;
}

/** The actions whose code loads on first use (toolServerActions.ts, see lazyActions.ts). */
export const TOOL_SERVER_ACTIONS = ['loadServerTools', 'addToolServer', 'updateToolServer'] as const;
