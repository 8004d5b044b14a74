import { describe, expect, it } from 'vitest';
import type { EventMap } from '../../src-shared/contract';
import type { TraceEvent } from '../../src-shared/trace';
import { createFlowBatcher } from './flow-events';

// mcp.called: the calls through tool servers, from the trace lines that name mcp_server, each in
// its latest state per batch (what a tool server node shows while capsules run).

const line = (event_type: string, fields: Record<string, unknown>): TraceEvent =>
  ({ ts: '2026-01-01T00:00:00.000Z', event_type, session_id: 's', task_id: 't', ...fields }) as unknown as TraceEvent;

describe('mcp.called', () => {
  it('sends each MCP call once per batch in its latest state, and nothing for other tools', () => {
    const sent: EventMap['mcp.called'][] = [];
    const b = createFlowBatcher(
      's',
      'w',
      (event, payload) => void (event === 'mcp.called' && sent.push(payload as EventMap['mcp.called'])),
    );
    b.push(
      line('tool_call', {
        call_id: 'c1',
        name: 'files__read_text_file',
        mcp_server: 'files',
        mcp_tool: 'read_text_file',
      }),
    );
    b.push(line('tool_call', { call_id: 'c2', name: 'shell' }));
    b.flush();
    expect(sent).toEqual([
      {
        sessionId: 's',
        capsuleId: 'w',
        calls: [
          expect.objectContaining({
            callId: 'c1',
            server: 'files',
            tool: 'read_text_file',
            state: 'running',
            taskId: 't',
          }),
        ],
      },
    ]);
    b.push(
      line('tool_result', {
        call_id: 'c1',
        name: 'files__read_text_file',
        mcp_server: 'files',
        mcp_tool: 'read_text_file',
        ok: false,
        duration_ms: 12,
      }),
    );
    b.flush();
    expect(sent[1].calls).toEqual([
      expect.objectContaining({
        callId: 'c1',
        state: 'failed',
        durationMs: 12,
        at: Date.parse('2026-01-01T00:00:00.000Z'),
      }),
    ]);
    b.flush();
    expect(sent).toHaveLength(2);
  });
});
