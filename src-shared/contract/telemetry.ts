import { command, runsHere } from './command';
import { z } from 'zod';

// OpenTelemetry settings in the Studio: where the sessions the Studio launches export their spans
// (OTLP over HTTP). Header values are often tokens: they go to the secret store in
// telemetry.configure and never come back (a header is shown by name, as set or not). Spread into
// `commands` in commands.ts; the handlers live in src-main/workspace/telemetry-commands.ts.

const none = z.strictObject({}).optional();

export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
/** The most headers the settings keep (an auth header or two in practice). */
export const MAX_OTEL_HEADERS = 16;
/** An HTTP header name (RFC 9110 token). */
const headerName = z
  .string()
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/, 'an HTTP header name (letters, digits, - and _)');
/** A header value: printable, no line breaks (it goes into an HTTP request as is). */
const headerValue = z
  .string()
  .min(1)
  .max(4096)
  .regex(/^[^\r\n\0]*$/, 'one line, no control characters');

export interface OtelHeaderView {
  name: string;
  /** Whether a value is kept for it (the value itself never leaves the core). */
  set: boolean;
}

/** What the sessions launched now would export with, and who decided. */
export interface OtelActiveView {
  source: 'studio' | 'environment';
  url: string;
  protocol: string;
  serviceName: string;
  /** Header names only. */
  headers: string[];
}

export interface TelemetryView {
  enabled: boolean;
  endpoint: string;
  protocol: (typeof OTLP_PROTOCOLS)[number];
  serviceName: string;
  headers: OtelHeaderView[];
  /** The OTEL_* / CAPSULE_OTEL variables of the Studio's own environment that decide export instead of these settings (empty: the settings apply). */
  environment: string[];
  /** Null: sessions launched now export nothing. */
  active: OtelActiveView | null;
  /** Spans of the active exporter in this process: handed to the exporter, waiting, dropped (queue full). Null before it sent anything. */
  stats: { exported: number; queued: number; dropped: number } | null;
}

export const telemetryCommands = {
  'telemetry.get': command<TelemetryView>()(
    "The Studio's OpenTelemetry settings, what sessions launched now export with, and the exporter's counts.",
    none,
    runsHere,
  ),
  'telemetry.configure': command<TelemetryView>()(
    'Changes the OpenTelemetry settings for the sessions launched from now on. `headers` replaces the list: a header with a `value` gets it (kept in the secret store), one without keeps its stored value; headers left out are deleted.',
    z.strictObject({
      enabled: z.boolean().optional(),
      endpoint: z
        .string()
        .max(2048)
        .url()
        .refine((u) => /^https?:\/\//i.test(u), 'an http or https URL')
        .optional(),
      protocol: z.enum(OTLP_PROTOCOLS).optional(),
      serviceName: z
        .string()
        .min(1)
        .max(128)
        .regex(/^[^\r\n\0]+$/, 'one line')
        .optional(),
      headers: z
        .array(z.strictObject({ name: headerName, value: headerValue.optional() }))
        .max(MAX_OTEL_HEADERS)
        .optional(),
    }),
    runsHere,
  ),
} as const;
