import type { Context, Span, Tracer } from '@opentelemetry/api';
import { GEN_AI, GEN_AI_OPERATION, PROVIDER_OF_DRIVER } from './genai';

// One session's trace events -> OpenTelemetry spans: a span per task (invoke_agent), per model
// turn (chat, with the GenAI attributes: model, tokens, finish reason), per tool call
// (execute_tool) and per delegation. Spans link across capsules by the traceparent each A2A hop
// carries: a delegation's span has exactly the span id its traceparent names, and the task that
// traceparent started at the peer is that span's child, so a formation run is one trace. Only
// ids, names, counts and states are exported, never a message's text (trace lines are masked,
// and model text stays out of the export besides).

type Line = Record<string, any>;

export interface SessionIdentity {
  id: string;
  capsule: string;
  version: string;
  model: string;
  driver: string;
}

/** Lets the next span start with a chosen trace id and/or span id (the tracer's id generator reads it). */
export interface IdOverride {
  next(ids: { traceId?: string; spanId?: string }): void;
}

/**
 * A delegation names the trace of the task that made it, which for a task started by another
 * hop is not that task's own trace: this maps such trace ids to the trace they belong to (in
 * this process; a bounded map, oldest entries forgotten first).
 */
export class TraceAliases {
  private readonly map = new Map<string, string>();
  constructor(private readonly max = 10_000) {}
  set(alias: string, traceId: string): void {
    if (alias === traceId) return;
    this.map.delete(alias);
    this.map.set(alias, traceId);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }
  resolve(traceId: string): string {
    return this.map.get(traceId) ?? traceId;
  }
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;
const time = (ts: unknown) => (typeof ts === 'string' && Number.isFinite(Date.parse(ts)) ? Date.parse(ts) : Date.now());
const taskHex = (id: string) => /^tsk_([0-9a-f]{32})$/.exec(id)?.[1];

interface OpenTask {
  span: Span;
  ctx: Context;
  tools: Map<string, { span: Span; to?: string; ctx: Context; delegated: boolean }>;
  delegations: Map<string, Span>;
  failure?: string;
}

/** The OpenTelemetry API, handed in: it is loaded only once export is on (see exporter.ts). */
export type OtelApi = typeof import('@opentelemetry/api');

export function createSessionSpans(
  api: OtelApi,
  tracer: Tracer,
  ids: IdOverride,
  aliases: TraceAliases,
  who: SessionIdentity,
) {
  const { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace } = api;
  const tasks = new Map<string, OpenTask>();
  const provider = PROVIDER_OF_DRIVER[who.driver] ?? who.driver;

  const startTask = (l: Line) => {
    const id = String(l.task_id);
    const tp = TRACEPARENT.exec(String(l.traceparent ?? ''));
    let parent: Context = ROOT_CONTEXT;
    if (tp) {
      const traceId = aliases.resolve(tp[1]);
      parent = trace.setSpanContext(ROOT_CONTEXT, {
        traceId,
        spanId: tp[2],
        traceFlags: TraceFlags.SAMPLED,
        isRemote: true,
      });
    } else {
      // The root task's trace id is its own id's hex: the id its delegations' traceparents carry.
      ids.next({ traceId: taskHex(id) });
    }
    const span = tracer.startSpan(
      `${GEN_AI_OPERATION.invokeAgent} ${who.capsule}`,
      {
        kind: SpanKind.SERVER,
        startTime: time(l.ts),
        attributes: {
          [GEN_AI.operationName]: GEN_AI_OPERATION.invokeAgent,
          [GEN_AI.agentName]: who.capsule,
          [GEN_AI.agentVersion]: who.version,
          [GEN_AI.agentId]: who.id,
          [GEN_AI.conversationId]: String(l.context_id ?? ''),
          'capsule.session.id': who.id,
          'a2a.task.id': id,
          'a2a.method': String(l.method ?? ''),
          ...(l.peer ? { 'a2a.peer': String(l.peer) } : {}),
        },
      },
      parent,
    );
    ids.next({});
    const traceId = span.spanContext().traceId;
    const hex = taskHex(id);
    if (hex) aliases.set(hex, traceId);
    tasks.set(id, { span, ctx: trace.setSpan(ROOT_CONTEXT, span), tools: new Map(), delegations: new Map() });
  };

  const turn = (t: OpenTask, l: Line) => {
    const end = time(l.ts);
    const span = tracer.startSpan(
      `${GEN_AI_OPERATION.chat} ${who.model}`,
      {
        kind: SpanKind.CLIENT,
        startTime: end - (Number(l.duration_ms) || 0),
        attributes: {
          [GEN_AI.operationName]: GEN_AI_OPERATION.chat,
          'capsule.session.id': who.id,
          [GEN_AI.providerName]: provider,
          [GEN_AI.requestModel]: who.model,
          [GEN_AI.responseModel]: who.model,
          [GEN_AI.usageInputTokens]: Number(l.tokens_in) || 0,
          [GEN_AI.usageOutputTokens]: Number(l.tokens_out) || 0,
          [GEN_AI.responseFinishReasons]: [String(l.stop_reason ?? '')],
          'capsule.turn': Number(l.turn) || 0,
          'capsule.tool_calls': Array.isArray(l.tool_calls) ? l.tool_calls.length : 0,
        },
      },
      t.ctx,
    );
    span.end(end);
  };

  const toolCall = (t: OpenTask, l: Line) => {
    const name = String(l.name ?? '');
    const span = tracer.startSpan(
      `${GEN_AI_OPERATION.executeTool} ${name}`,
      {
        kind: SpanKind.INTERNAL,
        startTime: time(l.ts),
        attributes: {
          [GEN_AI.operationName]: GEN_AI_OPERATION.executeTool,
          'capsule.session.id': who.id,
          [GEN_AI.toolName]: name,
          [GEN_AI.toolCallId]: String(l.call_id ?? ''),
        },
      },
      t.ctx,
    );
    const to = name === 'delegate_task' && typeof l.arguments?.to === 'string' ? l.arguments.to : undefined;
    t.tools.set(String(l.call_id), { span, to, ctx: trace.setSpan(ROOT_CONTEXT, span), delegated: false });
  };

  const delegationStart = (t: OpenTask, l: Line) => {
    const tool = [...t.tools.values()].find((x) => x.to !== undefined && !x.delegated && x.to === l.to);
    if (tool) tool.delegated = true;
    const tp = TRACEPARENT.exec(String(l.traceparent ?? ''));
    // The span id the traceparent names, so the peer's task span is this span's child.
    if (tp) aliases.set(tp[1], t.span.spanContext().traceId);
    ids.next({ spanId: tp?.[2] });
    const span = tracer.startSpan(
      `delegate ${String(l.capsule || l.to || '')}`,
      {
        kind: SpanKind.CLIENT,
        startTime: time(l.ts),
        attributes: {
          'capsule.session.id': who.id,
          'capsule.delegation.id': String(l.delegation_id ?? ''),
          'capsule.delegation.to': String(l.capsule || l.to || ''),
          'server.address': String(l.peer_url ?? ''),
          ...(l.child_session_id ? { 'capsule.delegation.session.id': String(l.child_session_id) } : {}),
        },
      },
      tool?.ctx ?? t.ctx,
    );
    ids.next({});
    t.delegations.set(String(l.delegation_id), span);
  };

  const endTask = (id: string, t: OpenTask, l: Line) => {
    const end = time(l.ts);
    for (const d of t.delegations.values()) d.end(end);
    for (const x of t.tools.values()) x.span.end(end);
    const status = String(l.exit_status ?? '');
    t.span.setAttributes({
      'capsule.task.exit_status': status,
      'a2a.task.state': String(l.state ?? ''),
      'capsule.task.turns': Number(l.turns) || 0,
      [GEN_AI.usageInputTokens]: Number(l.tokens_in) || 0,
      [GEN_AI.usageOutputTokens]: Number(l.tokens_out) || 0,
    });
    if (status === 'failed') t.span.setStatus({ code: SpanStatusCode.ERROR, message: t.failure ?? 'failed' });
    t.span.end(end);
    tasks.delete(id);
  };

  return {
    consume(l: Line): void {
      const id = typeof l.task_id === 'string' ? l.task_id : undefined;
      if (l.event_type === 'session_end') return this.close(time(l.ts));
      if (!id) return;
      if (l.event_type === 'a2a_task_received') {
        if (!tasks.has(id)) startTask(l);
        return;
      }
      const t = tasks.get(id);
      if (!t) return;
      switch (l.event_type) {
        case 'inference':
          return turn(t, l);
        case 'tool_call':
          return toolCall(t, l);
        case 'tool_result': {
          const x = t.tools.get(String(l.call_id));
          if (!x) return;
          if (l.ok === false) x.span.setStatus({ code: SpanStatusCode.ERROR });
          x.span.end(time(l.ts));
          t.tools.delete(String(l.call_id));
          return;
        }
        case 'delegation_start':
          return delegationStart(t, l);
        case 'delegation_end': {
          const d = t.delegations.get(String(l.delegation_id));
          if (!d) return;
          d.setAttributes({
            'a2a.task.state': String(l.state ?? ''),
            'a2a.peer.task_id': String(l.peer_task_id ?? ''),
          });
          if (l.state !== 'TASK_STATE_COMPLETED')
            d.setStatus({ code: SpanStatusCode.ERROR, message: String(l.state ?? '') });
          d.end(time(l.ts));
          t.delegations.delete(String(l.delegation_id));
          return;
        }
        case 'task_failed':
          t.failure = `${String(l.cause ?? '')}: ${String(l.message ?? '')}`.slice(0, 500);
          return;
        case 'task_end':
          return endTask(id, t, l);
      }
    },
    /** Ends whatever is still open (the session ended, or its process is going away). */
    close(at = Date.now()): void {
      for (const [id, t] of [...tasks]) endTask(id, t, { ts: new Date(at).toISOString(), exit_status: 'unfinished' });
    },
  };
}
