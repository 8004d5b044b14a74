import { createRequire } from 'node:module';
import type { ReadableSpan, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { TraceEvent } from '../../src-shared/trace';
import type { TelemetryConfig } from './config';
import { createSessionSpans, TraceAliases, type OtelApi, type SessionIdentity } from './spans';

// The OTLP export of every session this process runs, built on the official SDK: spans go through
// a BatchSpanProcessor to the OTLP/HTTP exporter (protobuf or JSON). It only listens to trace
// events, so the runtime knows nothing of it. Exporting never waits on the network in the
// runtime's path: a span is queued (bounded: maxQueueSize), and a span that finds the queue full
// is dropped and counted; each session whose spans were dropped gets a trace line saying how many.

/** What a followed session offers: its identity and its trace (events in, a line out for drops). */
export interface FollowedSession extends SessionIdentity {
  subscribe(listener: (event: TraceEvent) => void): () => void;
  append(event: { event_type: string } & Record<string, unknown>): unknown;
}

export interface Telemetry {
  follow(session: FollowedSession): () => void;
  stats(): { queued: number; exported: number; dropped: number };
  /** Sends what is queued now. */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** The trace line a session gets when some of its spans were dropped (at most every DROP_REPORT_MS). */
export const DROPPED_EVENT = 'otel_spans_dropped';
const DROP_REPORT_MS = 1000;

/**
 * The SDK and exporters are loaded on first use: they take hundreds of milliseconds to load, which
 * a process that exports nothing (most CLI commands, the default Studio) should not pay.
 */
function loadSdk() {
  const load = createRequire(__filename);
  return {
    api: load('@opentelemetry/api') as OtelApi,
    sdk: load('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base'),
    resources: load('@opentelemetry/resources') as typeof import('@opentelemetry/resources'),
    json: load('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http'),
    proto: load(
      '@opentelemetry/exporter-trace-otlp-proto',
    ) as typeof import('@opentelemetry/exporter-trace-otlp-proto'),
  };
}

export function createTelemetry(config: TelemetryConfig): Telemetry {
  const { api, sdk, resources, json, proto } = loadSdk();
  const options = { url: config.url, headers: config.headers, timeoutMillis: 10_000 };
  const inner: SpanExporter =
    config.protocol === 'http/json' ? new json.OTLPTraceExporter(options) : new proto.OTLPTraceExporter(options);
  let queued = 0;
  let exported = 0;
  let dropped = 0;
  const droppedBySession = new Map<string, number>();
  const reporters = new Map<string, () => void>();
  // The batch processor hands spans to the exporter when it sends them: that is when they leave the queue.
  const exporter: SpanExporter = {
    export(spans, done) {
      queued -= spans.length;
      exported += spans.length;
      inner.export(spans, done);
    },
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
  const batch = new sdk.BatchSpanProcessor(exporter, {
    maxQueueSize: config.maxQueueSize,
    maxExportBatchSize: Math.min(512, config.maxQueueSize),
    scheduledDelayMillis: config.scheduledDelayMs,
  });
  // In front of the batch: keeps the queue bound itself so every drop is counted here, per session.
  const gate: SpanProcessor = {
    onStart: () => undefined,
    onEnd(span: ReadableSpan) {
      if (queued >= config.maxQueueSize) {
        dropped++;
        const session = String(span.attributes['capsule.session.id'] ?? '');
        droppedBySession.set(session, (droppedBySession.get(session) ?? 0) + 1);
        reporters.get(session)?.();
        return;
      }
      queued++;
      batch.onEnd(span);
    },
    forceFlush: () => batch.forceFlush(),
    shutdown: () => batch.shutdown(),
  };
  let nextIds: { traceId?: string; spanId?: string } = {};
  const random = new sdk.RandomIdGenerator();
  const provider = new sdk.BasicTracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': config.serviceName }),
    spanProcessors: [gate],
    idGenerator: {
      generateTraceId: () => nextIds.traceId ?? random.generateTraceId(),
      generateSpanId: () => nextIds.spanId ?? random.generateSpanId(),
    },
  });
  const tracer = provider.getTracer('capsule-studio');
  const aliases = new TraceAliases();
  const ids = { next: (n: { traceId?: string; spanId?: string }) => (nextIds = n) };

  return {
    follow(session) {
      const spans = createSessionSpans(api, tracer, ids, aliases, session);
      let timer: NodeJS.Timeout | undefined;
      let reported = 0;
      let ended = false;
      reporters.set(session.id, () => {
        if (timer || ended) return;
        timer = setTimeout(() => {
          timer = undefined;
          const n = droppedBySession.get(session.id) ?? 0;
          if (n > reported && !ended) {
            reported = n;
            session.append({ event_type: DROPPED_EVENT, dropped: n, max_queue: config.maxQueueSize });
          }
        }, DROP_REPORT_MS);
        timer.unref();
      });
      const off = session.subscribe((event) => {
        if (event.event_type === DROPPED_EVENT) return;
        if (event.event_type === 'session_end') ended = true;
        spans.consume(event as Record<string, unknown>);
        if (ended) stop();
      });
      const stop = () => {
        off();
        spans.close();
        if (timer) clearTimeout(timer);
        reporters.delete(session.id);
        droppedBySession.delete(session.id);
      };
      return stop;
    },
    stats: () => ({ queued, exported, dropped }),
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
