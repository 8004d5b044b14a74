import { randomBytes } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { editTunnels, proofHashOf, tunnelsReader, TUNNELS_FILE, type TunnelRecord } from '../gateway';
import { startGuard, type GuardEntry } from './guard';
import { createLinkSigner } from './link';
import type { TunnelProvider } from './provider';

// One tunnel, hosted by this process: the guard on loopback, the provider's engine in front of
// it, and the record in the gateway's tunnels.json that `tunnel ls/revoke/stop` (any process) and
// the gateway read. The link is returned once; the tunnel ends at its expiry, on stop (here or from
// another process) or when the engine ends, and its record goes with it.

export const DEFAULT_TTL_MS = 24 * 3600_000;
export const MAX_TTL_MS = 7 * 24 * 3600_000;
export const START_TIMEOUT_MS = 30_000;

export interface TunnelOptions {
  /** The gateway's data folder (its tunnels.json). */
  dataDir: string;
  gatewayUrl: string;
  provider: TunnelProvider;
  ttlMs?: number;
  env: Record<string, string | undefined>;
  startTimeoutMs?: number;
  onAccess?(entry: GuardEntry): void;
}

export interface Tunnel {
  readonly id: string;
  readonly provider: string;
  readonly publicUrl: string;
  /** The link with its ?t= token: shown once, never stored. */
  readonly link: string;
  readonly expiresAt: string;
  /** Invalidates the link and every cookie made from it, at once; the tunnel stays up, refusing. */
  revoke(): void;
  close(why?: string): Promise<void>;
  /** Resolves with the reason once the tunnel is down (stopped, expired, engine ended). */
  readonly closed: Promise<string>;
}

/** '24h', '30m', '7d', '90s' as milliseconds; undefined when it is not one of those. */
export function parseTtl(text: string): number | undefined {
  const m = /^(\d{1,6})([smhd])$/.exec(text.trim());
  if (!m) return undefined;
  return Number(m[1]) * { s: 1000, m: 60_000, h: 3600_000, d: 86_400_000 }[m[2] as 's' | 'm' | 'h' | 'd'];
}

export async function openTunnel(opts: TunnelOptions): Promise<Tunnel> {
  const ttl = opts.ttlMs ?? DEFAULT_TTL_MS;
  if (!(ttl > 0 && ttl <= MAX_TTL_MS)) throw new RangeError(`a tunnel lives between 1 s and 7 days, not ${ttl} ms`);
  const id = `tun_${randomBytes(6).toString('hex')}`;
  const expires = Date.now() + ttl;
  const signer = createLinkSigner(id);
  const proof = randomBytes(32).toString('base64url');

  // The record as other processes left it, read again only when the file changed.
  const latest = tunnelsReader(opts.dataDir);
  const current = () => latest().find((r) => r.id === id);

  // Unknown until the engine is up: the guard answers busy meanwhile.
  let publicUrl: string | undefined = undefined;
  const guard = await startGuard({
    gatewayUrl: opts.gatewayUrl,
    publicOrigin: () => publicUrl,
    signer,
    proof,
    revoked: () => !!current()?.revokedAt,
    onAccess: (e) => opts.onAccess?.(e),
  });
  let opened;
  try {
    opened = await opts.provider.open(guard.url, { timeoutMs: opts.startTimeoutMs ?? START_TIMEOUT_MS, env: opts.env });
  } catch (err) {
    await guard.close();
    throw err;
  }
  publicUrl = opened.publicUrl;
  const record: TunnelRecord = {
    id,
    provider: opts.provider.name,
    publicUrl,
    gatewayUrl: opts.gatewayUrl,
    pid: process.pid,
    createdAt: new Date().toISOString(),
    expiresAt: new Date(expires).toISOString(),
    proofHash: proofHashOf(proof),
  };
  editTunnels(opts.dataDir, (rs) => [...rs, record]);

  let finished: ((why: string) => void) | undefined;
  const closed = new Promise<string>((r) => (finished = r));
  let closing: Promise<void> | undefined;
  let watcher: FSWatcher | undefined;
  const close = (why = 'stopped') =>
    (closing ??= (async () => {
      clearTimeout(expiry);
      clearInterval(poll);
      watcher?.close();
      await Promise.allSettled([guard.close(), opened.close()]);
      try {
        editTunnels(opts.dataDir, (rs) => rs.filter((r) => r.id !== id));
      } catch {}
      finished?.(why);
    })());

  const expiry = setTimeout(() => void close('expired'), expires - Date.now());
  // A stop asked from another terminal (`capsule tunnel stop`) is seen within a second.
  const check = () => {
    if (current()?.stopRequestedAt) void close('stopped');
  };
  const poll = setInterval(check, 1000);
  poll.unref();
  try {
    watcher = watch(opts.dataDir, (_k, name) => name === TUNNELS_FILE && check());
    watcher.unref();
  } catch {}
  opened.onExit((why) => void close(why));

  return {
    id,
    provider: opts.provider.name,
    publicUrl,
    link: `${publicUrl}/?t=${signer.mint('link', expires)}`,
    expiresAt: record.expiresAt,
    revoke() {
      editTunnels(opts.dataDir, (rs) =>
        rs.map((r) => (r.id === id ? { ...r, revokedAt: new Date().toISOString() } : r)),
      );
    },
    close,
    closed,
  };
}
