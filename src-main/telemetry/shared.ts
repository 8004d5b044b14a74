import { telemetryConfigFromEnv } from './config';
import { createTelemetry, type Telemetry } from './exporter';

// One exporter per distinct configuration for the whole process (sessions, their sub-capsules
// and a Studio's formation all share it), made on first use. At most a few configurations exist
// in a process (tests use one each); the map is bounded all the same.

const MAX = 16;
const byConfig = new Map<string, Telemetry>();

/** The exporter the environment asks for, or undefined when export is off. */
export function telemetryFor(env: Record<string, string | undefined>): Telemetry | undefined {
  const config = telemetryConfigFromEnv(env);
  if (!config) return undefined;
  const key = JSON.stringify(config);
  let t = byConfig.get(key);
  if (!t) {
    if (byConfig.size >= MAX) return undefined;
    t = createTelemetry(config);
    byConfig.set(key, t);
  }
  return t;
}

/** The counts of the exporter the environment asks for, if one was made (none is made here). */
export function telemetryStatsFor(env: Record<string, string | undefined>): ReturnType<Telemetry['stats']> | undefined {
  const config = telemetryConfigFromEnv(env);
  return config ? byConfig.get(JSON.stringify(config))?.stats() : undefined;
}

/**
 * Sends the spans still queued, waiting at most `timeoutMs`: called before the process exits (the
 * CLI), since a queued span is otherwise lost with it. Resolves at once when nothing is exported.
 */
export async function flushTelemetry(timeoutMs = 5000): Promise<void> {
  if (!byConfig.size) return;
  const all = Promise.all([...byConfig.values()].map((t) => t.flush().catch(() => undefined)));
  await Promise.race([all, new Promise<void>((r) => setTimeout(r, timeoutMs).unref())]);
}
