import { createHash, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { z } from 'zod';
import { atomicWriteSync, fileStampSync } from '../fs';
import { hostAlive } from '../trace';

// The tunnels that reach this gateway from the internet, in <dataDir>/tunnels.json. The process
// that hosts a tunnel (`capsule tunnel create`, or the Studio) writes its record; `tunnel ls`,
// `revoke` and `stop` in another terminal read and mark it; the gateway reads it to know which
// requests came through a tunnel's own guard. Only hashes are kept: the link, its cookies and the
// guard's proof exist in clear only in the hosting process.

export const TUNNELS_FILE = 'tunnels.json';
/** The header a tunnel's guard adds to every request it forwards; the gateway checks its hash. */
export const TUNNEL_PROOF_HEADER = 'x-capsule-tunnel-proof';

const recordSchema = z.object({
  id: z.string().regex(/^tun_[0-9a-f]{8,32}$/),
  provider: z.string().min(1),
  /** The public https origin callers use. */
  publicUrl: z.string().url(),
  /** The gateway the tunnel forwards to. */
  gatewayUrl: z.string().url(),
  pid: z.number().int(),
  createdAt: z.string(),
  expiresAt: z.string(),
  proofHash: z.string().regex(/^[0-9a-f]{64}$/),
  revokedAt: z.string().optional(),
  stopRequestedAt: z.string().optional(),
});
const fileSchema = z.object({ version: z.literal(1), tunnels: z.array(recordSchema) });

export type TunnelRecord = z.infer<typeof recordSchema>;
export type TunnelState = 'open' | 'revoked' | 'expired' | 'stopping' | 'gone';

export const proofHashOf = (proof: string) => createHash('sha256').update(proof, 'utf8').digest('hex');

/** A record's state now: gone when its hosting process ended without removing it. */
export function tunnelState(r: TunnelRecord, now = Date.now()): TunnelState {
  if (!hostAlive({ pid: r.pid })) return 'gone';
  if (r.stopRequestedAt) return 'stopping';
  if (r.revokedAt) return 'revoked';
  if (Date.parse(r.expiresAt) <= now) return 'expired';
  return 'open';
}

function readFile(file: string): TunnelRecord[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  try {
    const parsed = fileSchema.safeParse(JSON.parse(text));
    // A damaged file trusts no tunnel rather than the wrong one.
    return parsed.success ? parsed.data.tunnels : [];
  } catch {
    return [];
  }
}

export function readTunnels(dataDir: string): TunnelRecord[] {
  return readFile(join(dataDir, TUNNELS_FILE));
}

/**
 * Changes tunnels.json under a lock shared with every other process, so two terminals editing at
 * once never lose each other's change. Records of processes that are gone are dropped on the way.
 */
export function editTunnels(dataDir: string, edit: (records: TunnelRecord[]) => TunnelRecord[]): TunnelRecord[] {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, TUNNELS_FILE);
  const release = lockfile.lockSync(dataDir, { lockfilePath: `${file}.lock`, stale: 10_000 });
  try {
    const next = edit(readFile(file).filter((r) => hostAlive({ pid: r.pid })));
    atomicWriteSync(file, `${JSON.stringify({ version: 1, tunnels: next }, null, 2)}\n`, { mode: 0o600 });
    return next;
  } finally {
    release();
  }
}

/** The records of tunnels.json, read again only when the file changed (a stat per call). */
export function tunnelsReader(dataDir: string): () => TunnelRecord[] {
  const file = join(dataDir, TUNNELS_FILE);
  let stamp = '';
  let records: TunnelRecord[] = [];
  return () => {
    const s = fileStampSync(file);
    if (s !== stamp) {
      records = readFile(file);
      stamp = s;
    }
    return records;
  };
}

/**
 * The public origin of the tunnel whose guard sent this proof, or undefined. The forwarded host is
 * believed only from a tunnel's own guard (it holds the proof), never from a caller's header. The
 * file is read again only when it changed.
 */
export function createTunnelTrust(dataDir: string): (proof: string | undefined) => string | undefined {
  const latest = tunnelsReader(dataDir);
  return (proof) => {
    if (!proof || proof.length > 200) return undefined;
    const records = latest();
    const presented = Buffer.from(proofHashOf(proof), 'hex');
    let match: TunnelRecord | undefined;
    for (const r of records) {
      if (timingSafeEqual(presented, Buffer.from(r.proofHash, 'hex')) && !match) match = r;
    }
    return match && !match.stopRequestedAt && Date.parse(match.expiresAt) > Date.now()
      ? new URL(match.publicUrl).origin
      : undefined;
  };
}
