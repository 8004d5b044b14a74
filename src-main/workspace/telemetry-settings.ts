import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { MAX_OTEL_HEADERS, OTLP_PROTOCOLS } from '../../src-shared/contract/telemetry';
import { atomicWriteSync } from '../fs';
import type { SecretStore } from '../secrets';

// The Studio's OpenTelemetry settings (<userData>/telemetry.json, no secrets in it) and the launch
// environment they make: the OTEL_* variables the export reads (src-main/telemetry/config.ts) are
// answered from the settings for every session the Studio launches. Header values live in the
// secret store under OTEL_HEADER_<NAME>. Precedence: when the Studio's own environment sets any
// variable that turns export on or off, the environment decides everything and the settings
// wait (as a variable set in the environment wins over the secret store).

export const GOVERNING_VARS = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'CAPSULE_OTEL',
  'OTEL_SDK_DISABLED',
] as const;
export const SETTINGS_FILE = 'telemetry.json';

const settingsSchema = z.object({
  enabled: z.boolean().default(false),
  endpoint: z.string().max(2048).default('http://localhost:4318'),
  protocol: z.enum(OTLP_PROTOCOLS).default('http/protobuf'),
  serviceName: z.string().min(1).max(128).default('capsule'),
  headers: z.array(z.string().max(64)).max(MAX_OTEL_HEADERS).default([]),
});
export type OtelSettings = z.infer<typeof settingsSchema>;

/** The secret store name a header's value is kept under. */
export const headerSecretName = (header: string) => `OTEL_HEADER_${header.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;

type Env = Record<string, string | undefined>;

export interface TelemetrySettings {
  read(): OtelSettings;
  write(next: OtelSettings): void;
  /** The process environment's variables that decide export instead of the settings. */
  governing(): string[];
  /** `base` with the OTEL_* variables answered from the settings (when they apply). */
  env(base: Env): Env;
}

export function createTelemetrySettings(userDataDir: string, secrets: SecretStore, processEnv: Env): TelemetrySettings {
  const file = join(userDataDir, SETTINGS_FILE);
  const load = (): OtelSettings => {
    try {
      return settingsSchema.parse(existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {});
    } catch {
      return settingsSchema.parse({}); // a damaged file reads as export off; saving rewrites it
    }
  };
  // Read once: every launch asks for a dozen variables, and only write() changes the file.
  let current = load();
  const read = () => current;
  const governing = () => GOVERNING_VARS.filter((v) => processEnv[v] !== undefined && processEnv[v] !== '');
  /** The variables the export reads, as the settings answer them. */
  const answers = (s: OtelSettings): Env => {
    const headers = s.headers
      .map((h) => {
        let value: string | undefined;
        try {
          value = secrets.value(headerSecretName(h));
        } catch {
          value = undefined; // a damaged store: the header is left out, the Secrets dialog names the problem
        }
        return value === undefined ? undefined : `${encodeURIComponent(h)}=${encodeURIComponent(value)}`;
      })
      .filter(Boolean)
      .join(',');
    return {
      CAPSULE_OTEL: 'on',
      OTEL_SDK_DISABLED: undefined,
      OTEL_EXPORTER_OTLP_ENDPOINT: s.endpoint,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined,
      OTEL_EXPORTER_OTLP_PROTOCOL: s.protocol,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: undefined,
      OTEL_SERVICE_NAME: s.serviceName,
      OTEL_EXPORTER_OTLP_HEADERS: headers,
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: undefined,
    };
  };
  return {
    read,
    write(next) {
      const parsed = settingsSchema.parse(next);
      mkdirSync(userDataDir, { recursive: true });
      atomicWriteSync(file, JSON.stringify(parsed, null, 2), { mode: 0o600 });
      current = parsed;
    },
    governing,
    env(base) {
      return new Proxy(base, {
        get(target, key) {
          if (typeof key !== 'string') return undefined;
          if (!key.startsWith('OTEL_') && key !== 'CAPSULE_OTEL') return target[key];
          const s = read();
          if (!s.enabled || governing().length) return target[key];
          const a = answers(s);
          return key in a ? a[key] : target[key];
        },
      });
    },
  };
}
