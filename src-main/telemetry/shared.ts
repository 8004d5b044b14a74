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
    // Spans still queued go out before a normal exit (bounded by the exporter's timeout).
    if (byConfig.size === 1) process.once('beforeExit', () => void Promise.all([...byConfig.values()].map((x) => x.flush().catch(() => undefined))));
  }
  return t;
}
