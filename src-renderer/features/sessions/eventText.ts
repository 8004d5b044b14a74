import type { SessionEventView } from '../../../src-shared/contract';

// What one trace line says, in a few words, for a row of the session's trace. Pure, so the
// list stays cheap to render and easy to test.

export type EventKind = 'inference' | 'tool' | 'a2a' | 'failure' | 'cancel' | 'task' | 'session' | 'other';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const clip = (s: string, n = 160) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function eventKind(type: string): EventKind {
  if (type === 'inference') return 'inference';
  if (type === 'tool_call' || type === 'tool_result') return 'tool';
  if (type.startsWith('a2a_') || type.startsWith('delegation_')) return 'a2a';
  if (type === 'task_failed' || type === 'task_rejected' || type === 'network_refused') return 'failure';
  if (type === 'task_canceled') return 'cancel';
  if (type.startsWith('task_') || type === 'input_required') return 'task';
  if (type.startsWith('session_')) return 'session';
  return 'other';
}

export function eventText(e: SessionEventView): string {
  const r = e as Record<string, unknown>;
  switch (e.event_type) {
    case 'inference':
      return `turn ${r.turn ?? '?'} · ${r.tokens_in ?? 0} in / ${r.tokens_out ?? 0} out · ${str(r.stop_reason)}${r.text ? ` · ${clip(str(r.text))}` : ''}`;
    case 'tool_call':
      return `${str(r.name)}(${clip(JSON.stringify(r.arguments ?? {}), 120)})`;
    case 'tool_result':
      return `${str(r.name)} ${r.ok === false ? 'failed' : 'ok'}: ${clip(str(r.result))}`;
    case 'a2a_send':
      return `→ ${str(r.peer_url)}${r.peer_task_id ? ` task ${str(r.peer_task_id)}` : ''}`;
    case 'a2a_task_received':
      return `← ${str(r.method) || 'message'}${r.peer ? ` from ${str(r.peer)}` : ''}: ${clip(str(r.text))}`;
    case 'delegation_start':
      return `→ ${str(r.to) || str(r.capsule)} at ${str(r.peer_url)} (${str(r.delegation_id)})`;
    case 'delegation_end':
      return `← ${str(r.delegation_id)}${r.peer_task_id ? ` task ${str(r.peer_task_id)}` : ''}${r.state ? ` ${str(r.state).replace('TASK_STATE_', '')}` : ''}`;
    case 'task_start':
      return r.context_id ? `in context ${str(r.context_id)}` : 'started';
    case 'task_end':
      return `${str(r.state).replace('TASK_STATE_', '')} · ${r.turns ?? 0} turns · ${r.tokens_in ?? 0}/${r.tokens_out ?? 0} tokens${r.answer ? ` · ${clip(str(r.answer))}` : ''}`;
    case 'task_failed':
      return `${str(r.cause)}: ${clip(str(r.message))}`;
    case 'task_canceled':
      return `canceled by ${str(r.by) || '?'}${r.interrupted ? ` during ${str(r.interrupted)}` : ''}`;
    case 'task_rejected':
      return clip(str(r.reason));
    case 'session_start':
      return `${str(r.capsule)} ${str(r.version)} · ${str(r.driver)} ${str(r.model)}`;
    case 'session_end':
      return `${str(r.reason)} · ${r.tasks ?? 0} tasks`;
    default:
      return clip(JSON.stringify(Object.fromEntries(Object.entries(r).filter(([k]) => !['ts', 'event_type', 'session_id', 'task_id', 'seq'].includes(k)))), 200);
  }
}

/** Rows of the trace list: a header where the task changes, then its events (by index). */
export type SessionRow = { kind: 'task'; key: string; taskId: string | null } | { kind: 'event'; key: string; index: number };

export function sessionRows(events: SessionEventView[]): SessionRow[] {
  const rows: SessionRow[] = [];
  let current: string | null | undefined;
  events.forEach((e, index) => {
    const task = e.task_id ?? null;
    if (task !== current) {
      current = task;
      rows.push({ kind: 'task', key: `h${e.seq}`, taskId: task });
    }
    rows.push({ kind: 'event', key: `e${e.seq}`, index });
  });
  return rows;
}
