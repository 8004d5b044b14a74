// OpenTelemetry export of session traces (OTLP over HTTP), a consumer of trace events.
export {
  telemetryConfigFromEnv,
  parseHeaders,
  DEFAULT_ENDPOINT,
  type TelemetryConfig,
  type OtlpProtocol,
} from './config';
export { createTelemetry, DROPPED_EVENT, type Telemetry, type FollowedSession } from './exporter';
export { telemetryFor, telemetryStatsFor, flushTelemetry } from './shared';
export { GEN_AI, GEN_AI_OPERATION } from './genai';
