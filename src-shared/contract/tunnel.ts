import { command, runsHere } from './command';
import { z } from 'zod';

// Reach from anywhere: tunnels in front of the Studio's gateway (the commands and events). The
// link with its ?t= token is in the answer of tunnel.create only, like an exposure's token.

const tunnelId = z.string().regex(/^tun_[0-9a-f]{8,32}$/, 'a tunnel id (tun_…)');

export const TUNNEL_PROVIDERS = ['cloudflared', 'ngrok'] as const;
export const TUNNEL_TTLS = ['1h', '8h', '24h', '7d'] as const;

export interface TunnelView {
  id: string;
  provider: string;
  /** The public https origin. */
  publicUrl: string;
  expiresAt: string;
  state: 'open' | 'revoked' | 'expired' | 'stopping';
  /** Calls let through since it opened, and refused. */
  calls: number;
  refused: number;
}

/** One request at the tunnel's guard (its path only; never the link or the cookie). */
export interface TunnelAccessView {
  time: string;
  method: string;
  status: number;
  outcome: string;
  durationMs: number;
}

export interface TunnelCreated {
  tunnel: TunnelView;
  /** Shown once: the link with its signed token. */
  link: string;
}

export const tunnelCommands = {
  'tunnel.list': command<{ tunnels: TunnelView[] }>()(
    "The tunnels in front of this Studio's gateway.",
    z.strictObject({}).optional(),
    runsHere,
  ),
  'tunnel.create': command<TunnelCreated>()(
    "Opens a public https URL to this Studio's gateway through cloudflared or ngrok, guarded by a signed link (shown once).",
    z.strictObject({ provider: z.enum(TUNNEL_PROVIDERS).optional(), ttl: z.enum(TUNNEL_TTLS).optional() }),
    runsHere,
  ),
  'tunnel.revoke': command<void>()(
    "Invalidates a tunnel's link and every cookie made from it, at once.",
    z.strictObject({ id: tunnelId }),
    runsHere,
  ),
  'tunnel.stop': command<void>()('Tears a tunnel down.', z.strictObject({ id: tunnelId }), runsHere),
} as const;

export interface TunnelEventMap {
  /** Tunnels opened, revoked, stopped or expired. */
  'tunnel.changed': { tunnels: TunnelView[] };
  /** A request at a tunnel's guard (let through or refused). */
  'tunnel.accessed': { id: string; entry: TunnelAccessView };
}
export const TUNNEL_EVENT_NAMES: (keyof TunnelEventMap)[] = ['tunnel.changed', 'tunnel.accessed'];
