import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

// Where a headless gateway keeps its data ($CAPSULE_HOME/gateway) and the record `capsule serve`
// writes while it runs, so `capsule expose` in another terminal knows the gateway's URL.

export const GATEWAY_RECORD_FILE = 'gateway.json';

const recordSchema = z.object({ pid: z.number().int(), url: z.string(), host: z.string(), port: z.number().int(), started_at: z.string() });
export type GatewayRecord = z.infer<typeof recordSchema>;

export const gatewayDataDir = (home: string) => join(home, 'gateway');

export function writeGatewayRecord(dataDir: string, record: GatewayRecord): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, GATEWAY_RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`);
}

export function removeGatewayRecord(dataDir: string): void {
  rmSync(join(dataDir, GATEWAY_RECORD_FILE), { force: true });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The running gateway's record, or undefined (none written, or its process is gone). */
export function readGatewayRecord(dataDir: string): GatewayRecord | undefined {
  const file = join(dataDir, GATEWAY_RECORD_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const r = recordSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return r.success && alive(r.data.pid) ? r.data : undefined;
  } catch {
    return undefined;
  }
}
