import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { hostAlive, processStart } from '../trace';

// Where a headless gateway keeps its data ($CAPSULE_HOME/gateway) and the record `capsule serve`
// writes while it runs, so `capsule expose` in another terminal knows the gateway's URL.

export const GATEWAY_RECORD_FILE = 'gateway.json';

// pid_start: when the gateway's process started (Linux), so a later process handed the same pid
// after a kill -9 is not taken for the gateway.
const recordSchema = z.object({
  pid: z.number().int(),
  pid_start: z.string().optional(),
  url: z.string(),
  host: z.string(),
  port: z.number().int(),
  started_at: z.string(),
});
export type GatewayRecord = z.infer<typeof recordSchema>;

export const gatewayDataDir = (home: string) => join(home, 'gateway');

export function writeGatewayRecord(dataDir: string, record: GatewayRecord): void {
  mkdirSync(dataDir, { recursive: true });
  const pidStart = record.pid_start ?? processStart(record.pid);
  writeFileSync(
    join(dataDir, GATEWAY_RECORD_FILE),
    `${JSON.stringify(pidStart === undefined ? record : { ...record, pid_start: pidStart }, null, 2)}\n`,
  );
}

export function removeGatewayRecord(dataDir: string): void {
  rmSync(join(dataDir, GATEWAY_RECORD_FILE), { force: true });
}

/** The running gateway's record, or undefined (none written, or its process is gone or is another one now). */
export function readGatewayRecord(dataDir: string): GatewayRecord | undefined {
  const file = join(dataDir, GATEWAY_RECORD_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const r = recordSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return r.success && hostAlive({ pid: r.data.pid, pidStart: r.data.pid_start }) ? r.data : undefined;
  } catch {
    return undefined;
  }
}
