import type { TraceEvent } from './events';
import { describeResidue, parseResidueList } from '../residue';

// What a trace line says, in a few words, and what kind of line it is: one wording for every
// view of a trace (the live trace tab, the sessions browser). Pure, so lists stay cheap to render
// and easy to test.

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const clip = (s: string, n = 160) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export type TraceEventKind = 'inference' | 'tool' | 'a2a' | 'failure' | 'cancel' | 'task' | 'session' | 'other';

/** The kind of a trace event, for its colour in a list. */
export function traceEventKind(type: string): TraceEventKind {
  if (type === 'inference') return 'inference';
  if (type === 'tool_call' || type === 'tool_result') return 'tool';
  if (type.startsWith('a2a_') || type.startsWith('delegation_')) return 'a2a';
  if (type === 'task_failed' || type === 'task_rejected' || type === 'network_refused' || type === 'answer_invalid')
    return 'failure';
  if (type === 'task_canceled') return 'cancel';
  if (type.startsWith('task_') || type === 'input_required' || type.startsWith('breakpoint_')) return 'task';
  if (type.startsWith('session_')) return 'session';
  return 'other';
}

/** What one trace line says, in a few words (its type is shown beside it). */
export function describeTraceEvent(e: TraceEvent): string {
  const r = e as unknown as Record<string, unknown>;
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
    case 'frame':
      // The fragment first: in a narrow panel the words after it are the ones cut off.
      return r.kind === 'text_delta'
        ? `${clip(str(r.text).trim(), 100)} (turn ${r.turn ?? '?'} streaming)`
        : `${str(r.kind)}`;
    case 'task_end':
      return `${str(r.state).replace('TASK_STATE_', '')} · ${r.turns ?? 0} turn${r.turns === 1 ? '' : 's'} · ${r.tokens_in ?? 0}/${r.tokens_out ?? 0} tokens${r.answer ? ` · ${clip(str(r.answer))}` : ''}`;
    case 'task_failed':
      return `${str(r.cause)}: ${clip(str(r.message))}`;
    case 'task_canceled': {
      const left = parseResidueList(r.residue).map((item) => {
        const { status, text } = describeResidue(item);
        return `${status}: ${text}`;
      });
      return `canceled by ${str(r.by) || '?'}${r.interrupted ? ` during ${str(r.interrupted)}` : ''}${left.length ? ` · ${clip(left.join('; '))}` : ''}`;
    }
    case 'task_rejected':
      return clip(str(r.reason));
    case 'answer_invalid':
      return `turn ${r.turn ?? '?'} answer does not fit responds: ${clip(Array.isArray(r.problems) ? r.problems.map(str).join('; ') : '')}`;
    case 'artifact':
      return `${str(r.artifact_id)}${r.append ? ' (appended)' : ''} · ${r.parts ?? 0} part${r.parts === 1 ? '' : 's'}`;
    case 'session_start': {
      const f = r.forked_from as Record<string, unknown> | undefined;
      const fork =
        f && typeof f === 'object'
          ? ` · fork of ${str(f.session_id)} task ${str(f.task_id)} at turn ${String(f.turn ?? '?')}${f.edited ? ', message edited' : ''}`
          : '';
      return `${str(r.capsule)} ${str(r.version)} · ${str(r.driver)} ${str(r.model)}${fork}`;
    }
    case 'session_end':
      return `${str(r.reason)} · ${r.tasks ?? 0} tasks`;
    case 'breakpoint_hit':
      return `paused before ${r.point === 'edge' ? `the delegation to ${str(r.capsule) || str(r.to)}` : `turn ${r.turn ?? '?'}`}: ${clip(str(r.text))}`;
    case 'breakpoint_resumed':
      return `${str(r.action)}${r.edited ? ' with the message edited' : ''}${r.by === 'timeout' ? ' (timed out)' : ''} after ${Math.round(Number(r.waited_ms) / 100) / 10} s`;
    case 'policy_changed': {
      const allow = Array.isArray(r.allow) ? (r.allow as unknown[]).map(String) : [];
      return `allow ${allow.length ? clip(allow.join(', '), 120) : 'nothing'} · peer tasks ${r.accept_peer_tasks ? 'accepted' : 'refused'}`;
    }
    default:
      return clip(
        JSON.stringify(
          Object.fromEntries(
            Object.entries(r).filter(([k]) => !['ts', 'event_type', 'session_id', 'task_id', 'seq'].includes(k)),
          ),
        ),
        200,
      );
  }
}
