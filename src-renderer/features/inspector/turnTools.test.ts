import { describe, expect, it } from 'vitest';
import type { DelegationPhase } from '../../store';
import type { TurnView } from './taskTrace';
import { turnToolsCell } from './turnTools';

// A turn's Tools cell tells its delegations as the Delegations list does, and a time only once
// every call has its result.

const turn = (tools: TurnView['tools'], toolsMs: number | null = null): TurnView => ({
  turn: 1,
  offsetMs: 0,
  modelMs: 10,
  toolsMs,
  tokensIn: 1,
  tokensOut: 1,
  costUsd: null,
  stopReason: 'tool_use',
  text: '',
  tools,
});
const phases = (entries: [string, DelegationPhase][]) => new Map(entries);

describe('turnToolsCell', () => {
  it('counts one answered and one paused delegation, not "running", while their results wait', () => {
    const cell = turnToolsCell(
      turn([
        { callId: 'c1', name: 'delegate_task' },
        { callId: 'c2', name: 'delegate_task' },
      ]),
      phases([
        ['c1', 'answered'],
        ['c2', 'paused'],
      ]),
      false,
    );
    expect(cell.text).toBe('2 · 1 answered, 1 paused');
    expect(cell.title).toBe('delegate_task (answered)\ndelegate_task (paused)');
  });

  it('gives the time once every result is in', () => {
    const cell = turnToolsCell(
      turn(
        [
          { callId: 'c1', name: 'delegate_task', ok: true, durationMs: 900 },
          { callId: 'c2', name: 'read_file', ok: false, durationMs: 20 },
        ],
        900,
      ),
      phases([['c1', 'answered']]),
      true,
    );
    expect(cell.text).toBe('2 · 900 ms');
    expect(cell.title).toBe('delegate_task 900 ms\nread_file 20 ms, failed');
  });

  it('names a delegation whose result came after a cancel as the Delegations list does, not "failed"', () => {
    const cell = turnToolsCell(
      turn([{ callId: 'c1', name: 'delegate_task', ok: false, durationMs: 40 }], 40),
      phases([['c1', 'canceled']]),
      true,
    );
    expect(cell.title).toBe('delegate_task 40 ms, canceled');
  });

  it('reads other tools as done, working, or canceled when their task ended without the result', () => {
    const tools: TurnView['tools'] = [
      { callId: 'a', name: 'read_file', ok: true, durationMs: 5 },
      { callId: 'b', name: 'run_shell' },
    ];
    expect(turnToolsCell(turn(tools, 5), phases([]), false).text).toBe('2 · 1 done, 1 working');
    expect(turnToolsCell(turn(tools, 5), phases([]), true).text).toBe('2 · 1 done, 1 canceled');
  });

  it('shows a dash for a turn without tool calls', () => {
    expect(turnToolsCell(turn([]), phases([]), false)).toEqual({ text: '–', title: '' });
  });
});
