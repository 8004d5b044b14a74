// MCP servers a capsule uses (capabilities.mcp.servers): connections, tools, content, policy.
export { createMcpToolbox, type McpToolbox, type McpToolboxDeps } from './toolbox';
export { McpCallError, DEFAULT_MCP_LIMITS, type McpLimits } from './connection';
export { modelToolNames } from './names';
export { resultContent, recordedParts, MAX_RESULT_TEXT, MAX_BINARY_BYTES } from './content';
export { createMcpPlayback, playsBackMcp } from './playback';
export { listMcpTools, type ListedTools } from './list-tools';
