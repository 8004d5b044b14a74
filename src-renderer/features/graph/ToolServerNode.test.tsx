import { renderToStaticMarkup } from 'react-dom/server';
import { ReactFlowProvider, type NodeProps } from '@xyflow/react';
import { expect, it, vi } from 'vitest';
import type { ToolServerFlowNode } from '../../store';
import { CompactContext } from './compact';
import { ToolServerNode } from './ToolServerNode';

// Zoomed out, a tool server draws like a compact capsule: its name, large, and a dot that pulses
// while a call runs through it; the tool list and the calls wait for a closer zoom.

// The store as the node reads it (a server render sees the store's initial state, not a set one).
const state = {
  capsules: {},
  toolServers: {
    'mcp:files': { id: 'mcp:files', name: 'files', command: 'npx', args: ['fs-server'], position: { x: 0, y: 0 } },
  },
  serverTools: { 'mcp:files': { loading: false, tools: [{ name: 'read_file', description: 'Reads a file' }] } },
  toolCalls: {
    files: [
      {
        capsuleId: 'writer',
        sessionId: 's1',
        callId: 'c1',
        server: 'files',
        tool: 'read_file',
        state: 'running',
        at: 0,
      },
    ],
  },
};

vi.mock('../../store', () => ({
  useStudio: Object.assign((pick: (s: typeof state) => unknown) => pick(state), {
    getState: () => ({ ...state, loadServerTools: () => Promise.resolve() }),
  }),
}));

const props = { id: 'mcp:files', selected: false } as unknown as NodeProps<ToolServerFlowNode>;

const draw = (compact: boolean) =>
  renderToStaticMarkup(
    <ReactFlowProvider>
      <CompactContext.Provider value={compact}>
        <ToolServerNode {...props} />
      </CompactContext.Provider>
    </ReactFlowProvider>,
  );

it('draws the name and a busy dot when zoomed out, without the tool list', () => {
  const html = draw(true);
  expect(html).toContain('tool-server-node-compact');
  expect(html).toContain('<span class="capsule-node-name">files</span>');
  expect(html).toContain('data-state="busy"');
  expect(html).not.toContain('read_file');
});

it('draws the tools and the calls at a readable zoom', () => {
  const html = draw(false);
  expect(html).not.toContain('tool-server-node-compact');
  expect(html).toContain('Reads a file');
  expect(html).toContain('$ npx fs-server');
});
