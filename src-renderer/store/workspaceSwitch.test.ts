import { describe, expect, it } from 'vitest';
import type { FormationView } from '../../src-shared/contract';
import { entriesOf, type ConsoleEntry } from './consoleSlice';
import { delegationsOf } from '../../src-shared/trace';
import { foldDelegations } from './delegationsFold';
import { emptyBatch, foldBatch } from './fold';
import { keepNotices, type Notice } from './noticeSlice';
import { useStudio } from './index';

// What the store keeps per workspace and how notices stack: pure folds over plain state.

const view = (dir: string): FormationView => ({ dir, name: dir, capsules: [], remotes: [], edges: [], issues: [] });
const notice = (id: number, level: Notice['level']): Notice => ({ id, level, message: `n${id}` });

describe('notices', () => {
  it('keep at most three, dropping the oldest that is not an error first', () => {
    const kept = keepNotices([notice(1, 'error'), notice(2, 'info'), notice(3, 'warning'), notice(4, 'info')]);
    expect(kept.map((n) => n.id)).toEqual([1, 3, 4]);
    expect(
      keepNotices([notice(1, 'error'), notice(2, 'error'), notice(3, 'error'), notice(4, 'error')]).map((n) => n.id),
    ).toEqual([2, 3, 4]);
  });

  it('are cleared when another workspace opens, not when the same one changes', () => {
    const base = {
      ...useStudio.getState(),
      workspace: { dir: '/a', name: 'a', issues: [] },
      notices: [notice(1, 'error')],
    };
    const whole = (dir: string) => ({
      ...emptyBatch(),
      formations: [{ change: { version: 1, dir, full: view(dir) }, after: 0 }],
    });
    expect(foldBatch(base, whole('/a')).notices ?? base.notices).toEqual(base.notices);
    expect(foldBatch(base, whole('/b')).notices).toEqual([]);
  });
});

describe('console history', () => {
  it('is kept per workspace', () => {
    const entries: ConsoleEntry[] = [
      { key: 1, dir: '/a', capsuleId: 'o', conversation: 1, text: 'in a' },
      { key: 2, dir: '/b', capsuleId: 'o', conversation: 2, text: 'in b' },
    ];
    expect(entriesOf(entries, '/a').map((e) => e.text)).toEqual(['in a']);
    expect(entriesOf(entries, '/b').map((e) => e.text)).toEqual(['in b']);
  });

  it('lists each delegation of a task with its outcome', () => {
    const line = (event_type: string, extra: Record<string, unknown>) => ({
      ts: '',
      session_id: 's',
      task_id: 't1',
      event_type,
      name: 'delegate_task',
      ...extra,
    });
    const delegations = delegationsOf([
      line('tool_call', { call_id: 'c_1', arguments: { to: 'worker-a' } }),
      line('tool_call', { call_id: 'c_2', arguments: { to: 'worker-b' } }),
      line('tool_result', { call_id: 'c_1', ok: true, result: 'done' }),
      line('tool_result', { call_id: 'c_2', ok: false, result: 'peer_not_accepted' }),
    ] as never);
    const folded = foldDelegations(useStudio.getState(), [{ sessionId: 's', capsuleId: 'o', delegations }]);
    expect(folded.delegations?.t1).toEqual([
      { callId: 'c_1', to: 'worker-a', state: 'answered', text: 'done' },
      { callId: 'c_2', to: 'worker-b', state: 'failed', text: 'peer_not_accepted' },
    ]);
  });
});
