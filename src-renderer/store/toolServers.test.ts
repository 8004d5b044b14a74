import { beforeEach, describe, expect, it } from 'vitest';
import type { EdgeView, FormationView, ToolCallView, ToolServerView } from '../../src-shared/contract';
import { foldFormation, foldFormationChange } from './formationFold';
import { deriveFlow } from './graphModel';
import { useStudio } from './index';
import { CALLS_KEPT, foldToolCalls } from './toolServersSlice';

// Tool servers (MCP) in the store: nodes folded from formation.changed, their edges drawn from the
// capsule's tools handle, and the calls through each server kept newest first.

const initial = useStudio.getState();
beforeEach(() => useStudio.setState(initial, true));

const files: ToolServerView = {
  id: 'mcp:files',
  name: 'files',
  command: 'node',
  args: ['server.js'],
  position: { x: 10, y: 400 },
};
const edge: EdgeView = {
  id: 'w->mcp:files',
  source: 'w',
  target: 'mcp:files',
  targetKind: 'tool_server',
  address: 'files',
  tools: ['read_text_file'],
};
const view = (over: Partial<FormationView> = {}): FormationView => ({
  dir: '/ws',
  name: 'ws',
  capsules: [{ id: 'w', name: 'w', position: { x: 0, y: 0 } } as FormationView['capsules'][number]],
  remotes: [],
  toolServers: [files],
  edges: [edge],
  issues: [],
  version: 1,
  ...over,
});

describe('tool servers in the store', () => {
  it('folds the nodes and draws the edge from the tools handle, narrowed', () => {
    const s = { ...useStudio.getState(), ...foldFormation(useStudio.getState(), view()) };
    expect(s.toolServerIds).toEqual(['mcp:files']);
    const flow = deriveFlow(s);
    expect(flow.flowNodes.find((n) => n.id === 'mcp:files')).toMatchObject({
      type: 'toolServer',
      position: { x: 10, y: 400 },
    });
    expect(flow.flowEdges[0]).toMatchObject({
      type: 'tool',
      sourceHandle: 'tools',
      data: { tools: ['read_text_file'] },
    });
  });

  it('applies a tool server change keeping the others, and a formation without any empties the list', () => {
    let s = {
      ...useStudio.getState(),
      ...foldFormation(useStudio.getState(), view({ toolServers: [files, { ...files, id: 'mcp:b', name: 'b' }] })),
    };
    const b = s.toolServers['mcp:b'];
    s = {
      ...s,
      ...foldFormationChange(s, {
        version: 2,
        dir: '/ws',
        toolServers: { updated: [{ id: 'mcp:files', set: { position: { x: 1, y: 2 } } }] },
      }),
    };
    expect(s.toolServers['mcp:files'].position).toEqual({ x: 1, y: 2 });
    expect(s.toolServers['mcp:b']).toBe(b);
    s = {
      ...s,
      ...foldFormationChange(s, { version: 3, dir: '/ws', toolServers: { removed: ['mcp:files', 'mcp:b'] } }),
    };
    expect(s.toolServerIds).toEqual([]);
  });

  it('keeps each call in its latest state, newest first, a few per server', () => {
    const call = (n: number, state: ToolCallView['state']): ToolCallView => ({
      capsuleId: 'w',
      sessionId: 's',
      callId: `c${n}`,
      server: 'Files',
      tool: 'read_text_file',
      state,
      at: n,
    });
    let s = {
      ...useStudio.getState(),
      ...foldToolCalls(useStudio.getState(), [{ sessionId: 's', capsuleId: 'w', calls: [call(1, 'running')] }]),
    };
    s = {
      ...s,
      ...foldToolCalls(s, [
        {
          sessionId: 's',
          capsuleId: 'w',
          calls: [call(1, 'ok'), ...Array.from({ length: CALLS_KEPT + 2 }, (_, i) => call(i + 2, 'running'))],
        },
      ]),
    };
    const kept = s.toolCalls.files;
    expect(kept).toHaveLength(CALLS_KEPT);
    expect(kept[0].callId).toBe(`c${CALLS_KEPT + 3}`);
    expect(kept.some((c) => c.callId === 'c1')).toBe(false);
  });
});
