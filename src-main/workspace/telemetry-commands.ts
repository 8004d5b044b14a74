import { CoreError, type TelemetryView } from '../../src-shared/contract';
import type { SecretStore } from '../secrets';
import { telemetryConfigFromEnv, telemetryStatsFor } from '../telemetry';
import type { Handlers } from './handlers';
import { headerSecretName, type TelemetrySettings } from './telemetry-settings';

// The OpenTelemetry settings panel's commands. A header's value goes into the secret store and is
// never answered: the view names headers and says whether a value is kept. What sessions launched
// now export with is read from the very environment they get (the settings, or the Studio's own
// OTEL_* variables when those decide).

/** The active exporter's counts; none when the environment's settings do not parse (export is off then). */
function statsOf(env: Record<string, string | undefined>): TelemetryView['stats'] {
  try {
    return telemetryStatsFor(env) ?? null;
  } catch {
    return null;
  }
}

export function telemetryHandlers(
  settings: TelemetrySettings,
  secrets: SecretStore,
  launchEnv: () => Record<string, string | undefined>,
): Pick<Handlers, 'telemetry.get' | 'telemetry.configure'> {
  const view = (): TelemetryView => {
    const s = settings.read();
    const env = launchEnv();
    const environment = settings.governing();
    let active: TelemetryView['active'] = null;
    try {
      const c = telemetryConfigFromEnv(env);
      if (c)
        active = {
          source: environment.length ? 'environment' : 'studio',
          url: c.url,
          protocol: c.protocol,
          serviceName: c.serviceName,
          headers: Object.keys(c.headers),
        };
    } catch {
      active = null; // an unsupported OTEL_EXPORTER_OTLP_PROTOCOL in the environment: sessions export nothing
    }
    const stats = statsOf(env);
    const headers = s.headers.map((name) => ({ name, set: secrets.value(headerSecretName(name)) !== undefined }));
    return {
      enabled: s.enabled,
      endpoint: s.endpoint,
      protocol: s.protocol,
      serviceName: s.serviceName,
      headers,
      environment,
      active,
      stats,
    };
  };
  return {
    'telemetry.get': view,
    'telemetry.configure'(input) {
      const s = settings.read();
      let headers = s.headers;
      if (input.headers) {
        const names = input.headers.map((h) => h.name);
        if (new Set(names.map(headerSecretName)).size !== names.length)
          throw new CoreError('invalid_input', 'telemetry.configure: headers: a header is named twice');
        for (const h of input.headers) if (h.value !== undefined) secrets.set(headerSecretName(h.name), h.value);
        for (const old of s.headers.filter((n) => !names.includes(n))) {
          try {
            secrets.delete(headerSecretName(old));
          } catch {
            // Never set, or deleted in the Secrets dialog already.
          }
        }
        headers = names;
      }
      settings.write({
        enabled: input.enabled ?? s.enabled,
        endpoint: input.endpoint ?? s.endpoint,
        protocol: input.protocol ?? s.protocol,
        serviceName: input.serviceName ?? s.serviceName,
        headers,
      });
      return view();
    },
  };
}
