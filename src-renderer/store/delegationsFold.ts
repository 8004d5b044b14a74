import type { EventPayload } from '../../src-shared/contract';
import type { StudioState } from './types';

// Each delegation a task made, as the console shows it under the task: who it went to and how it
// ended. Folded from the trace lines as they arrive (delegate_task's tool_call and tool_result), so
// nothing scans a trace when the console renders.

/** One delegate_task call of a task. */
export interface DelegationOutcome {
  callId: string;
  /** The capsule name or URL it went to. */
  to: string;
  state: 'running' | 'answered' | 'failed';
  /** The answer or the error, cut to RESULT_CHARS. */
  text?: string;
}

/** Tasks whose delegations are kept (the console keeps 50 entries; a burst of peers' tasks is dropped first). */
const MAX_TASKS = 200;
const RESULT_CHARS = 300;

export function foldDelegations(state: StudioState, batches: EventPayload<'trace.appended'>[]): Partial<StudioState> {
  let next: Record<string, DelegationOutcome[]> | undefined;
  for (const b of batches) {
    for (const line of b.events) {
      const e = line as Record<string, unknown>;
      if ((e.event_type !== 'tool_call' && e.event_type !== 'tool_result') || e.name !== 'delegate_task') continue;
      const taskId = String(e.task_id ?? '');
      const callId = String(e.call_id ?? '');
      if (!taskId || !callId) continue;
      next ??= { ...state.delegations };
      const list = [...(next[taskId] ?? [])];
      if (e.event_type === 'tool_call') {
        const to = (e.arguments as { to?: unknown } | null | undefined)?.to;
        list.push({ callId, to: typeof to === 'string' ? to : '?', state: 'running' });
      } else {
        const i = list.findIndex((d) => d.callId === callId);
        const text = String(e.result ?? '').slice(0, RESULT_CHARS);
        const done = { state: e.ok ? ('answered' as const) : ('failed' as const), text };
        if (i >= 0) list[i] = { ...list[i], ...done };
        else list.push({ callId, to: '?', ...done });
      }
      next[taskId] = list;
    }
  }
  if (!next) return {};
  const ids = Object.keys(next);
  if (ids.length > MAX_TASKS) for (const id of ids.slice(0, ids.length - MAX_TASKS)) delete next[id];
  return { delegations: next };
}
