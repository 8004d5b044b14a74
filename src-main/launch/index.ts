import { DRIVER_ARTIFACTS } from '../../src-shared/manifest';
import { buildDoor } from '../door';
import { startSession as startServedSession, type Session, type SessionOptions } from '../runtime';
import { telemetryFor, type Telemetry } from '../telemetry';

// The one place a session meets its door. The runtime runs the session and defines what it
// offers (runtime/api.ts); the door serves that over A2A; this launcher, above both, composes
// them, so neither of the two imports the other's upper half. The CLI, the Studio core and the
// tests start sessions here; sub-capsules a delegation starts get a door the same way, and the
// OpenTelemetry export (when the environment asks for it) follows each one's trace events.

let warned = false;

function telemetryOf(env: Record<string, string | undefined>): Telemetry | undefined {
  try {
    return telemetryFor(env);
  } catch (err) {
    // A bad OTEL_* setting turns the export off; it never stops a session from starting.
    if (!warned) process.stderr.write(`capsule: OpenTelemetry export is off: ${(err as Error).message}\n`);
    warned = true;
    return undefined;
  }
}

export function startSession(opts: SessionOptions): Promise<Session> {
  const telemetry = telemetryOf(opts.env ?? process.env);
  return startServedSession(opts, (session) => {
    const m = session.manifest;
    telemetry?.follow({
      id: session.id,
      capsule: m.name,
      version: m.version,
      model: m.inference.model,
      driver:
        DRIVER_ARTIFACTS[m.inference.driver.artifact as keyof typeof DRIVER_ARTIFACTS] ?? m.inference.driver.artifact,
      subscribe: (listener) => session.trace.subscribe(listener),
      append: (event) => session.trace.append(event),
    });
    return buildDoor({ session });
  });
}
