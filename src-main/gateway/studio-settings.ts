import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

// Where the Studio's gateway listens, kept in <userData>/gateway/settings.json.

const settingsSchema = z.object({
  host: z.string().default('127.0.0.1'),
  port: z.number().int().min(0).max(65535).default(0),
  publicOrigin: z.string().url().optional(),
  trustProxy: z.boolean().default(false),
});
export type GatewaySettings = z.infer<typeof settingsSchema>;

export const SETTINGS_FILE = 'settings.json';

export function readSettings(dataDir: string): GatewaySettings {
  const file = join(dataDir, SETTINGS_FILE);
  try {
    if (existsSync(file)) return settingsSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch {}
  return settingsSchema.parse({});
}

export function writeSettings(dataDir: string, s: GatewaySettings): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, SETTINGS_FILE), `${JSON.stringify(s, null, 2)}\n`, { mode: 0o600 });
}
