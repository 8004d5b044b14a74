import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formationView } from './view';
import { openWorkspaceFolder } from './workspace';

// The MCP example workspace draws its two tool servers and librarian's edges to them, narrowed
// to the tools its manifest lists, and no stray external node.

describe('examples/mcp-tools on the canvas', () => {
  it('has tool server nodes from formation.yaml and edges from the manifest', () => {
    const ws = openWorkspaceFolder(resolve(__dirname, '../../examples/mcp-tools'));
    const view = formationView(
      ws.snapshot(),
      () => ({ id: '', state: 'stopped', queued: 0, tasks: 0, running: null }) as never,
      new Map(),
    );
    expect(view.issues).toEqual([]);
    expect(view.toolServers?.map((t) => [t.id, !!t.derived])).toEqual([
      ['mcp:files', false],
      ['mcp:pictures', false],
    ]);
    expect(view.edges.filter((e) => e.targetKind === 'tool_server').map((e) => [e.target, e.tools])).toEqual([
      ['mcp:files', ['list_directory', 'read_text_file']],
      ['mcp:pictures', ['get-tiny-image']],
    ]);
    expect(view.edges.some((e) => e.targetKind === 'external')).toBe(false);
  });
});
