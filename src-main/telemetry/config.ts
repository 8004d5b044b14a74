// OpenTelemetry export is configured the standard way, from the environment: off unless an OTLP
// endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT, or the traces-only OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
// or CAPSULE_OTEL=on asks for it (then the OTLP default, http://localhost:4318, is used);
// CAPSULE_OTEL=off or OTEL_SDK_DISABLED=true turn it off whatever else is set.

export type OtlpProtocol = 'http/protobuf' | 'http/json';

export interface TelemetryConfig {
  /** Where spans are POSTed (…/v1/traces). */
  url: string;
  protocol: OtlpProtocol;
  /** OTEL_EXPORTER_OTLP_HEADERS: often an auth token, so never logged or traced. */
  headers: Record<string, string>;
  serviceName: string;
  /** Spans waiting for export at most; beyond it new spans are dropped (and counted). */
  maxQueueSize: number;
  /** How often a batch goes out (ms). */
  scheduledDelayMs: number;
}

export const DEFAULT_ENDPOINT = 'http://localhost:4318';
export const DEFAULT_QUEUE = 2048;

type Env = Record<string, string | undefined>;

/** OTEL_EXPORTER_OTLP_HEADERS: `key=value,key2=value2`, values URL-encoded. */
export function parseHeaders(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    try {
      out[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      // A malformed escape: the header is left out rather than sent garbled.
    }
  }
  return out;
}

/** The export configuration the environment asks for, or undefined when export is off. */
export function telemetryConfigFromEnv(env: Env): TelemetryConfig | undefined {
  const switch_ = env.CAPSULE_OTEL?.trim().toLowerCase();
  if (switch_ === 'off' || switch_ === 'false' || env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true')
    return undefined;
  const tracesEndpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const on = switch_ === 'on' || switch_ === 'true';
  if (!tracesEndpoint && !endpoint && !on) return undefined;
  // The signal-specific endpoint is used as given; the general one gets the traces path (spec).
  const url = tracesEndpoint || `${(endpoint || DEFAULT_ENDPOINT).replace(/\/+$/, '')}/v1/traces`;
  const protocolText = (
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ??
    env.OTEL_EXPORTER_OTLP_PROTOCOL ??
    'http/protobuf'
  ).trim();
  if (protocolText !== 'http/protobuf' && protocolText !== 'http/json') {
    throw new Error(
      `OTEL_EXPORTER_OTLP_PROTOCOL: "${protocolText}" is not supported here (use http/protobuf or http/json)`,
    );
  }
  const queue = Number(env.OTEL_BSP_MAX_QUEUE_SIZE);
  const delay = Number(env.OTEL_BSP_SCHEDULE_DELAY);
  return {
    url,
    protocol: protocolText,
    headers: {
      ...parseHeaders(env.OTEL_EXPORTER_OTLP_HEADERS),
      ...parseHeaders(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS),
    },
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'capsule',
    maxQueueSize: Number.isInteger(queue) && queue > 0 ? Math.min(queue, 1_000_000) : DEFAULT_QUEUE,
    scheduledDelayMs: Number.isInteger(delay) && delay >= 0 ? delay : 1000,
  };
}
