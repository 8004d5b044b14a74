import type { TunnelAccessView, TunnelView } from '../../../src-shared/contract';
import { formatTime } from '../../ui/time';

// Words for the "Reach from anywhere" section (pure, tested beside it).

/** "expires in 23 h 59 min", "expires in 40 s", or "expired". */
export function expiresIn(expiresAt: string, now: number): string {
  const left = Date.parse(expiresAt) - now;
  if (Number.isNaN(left)) return `expires ${expiresAt}`;
  if (left <= 0) return 'expired';
  const s = Math.floor(left / 1000);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `expires in ${d} d ${h} h`;
  if (h > 0) return `expires in ${h} h ${m} min`;
  if (m > 0) return `expires in ${m} min ${s % 60} s`;
  return `expires in ${s} s`;
}

/** What a tunnel's state means for a caller holding its link. */
export function tunnelStateText(t: TunnelView): string {
  switch (t.state) {
    case 'open':
      return 'open';
    case 'revoked':
      return 'link revoked: every call is refused until you stop it';
    case 'expired':
      return 'expired: every call is refused';
    case 'stopping':
      return 'closing';
  }
}

const OUTCOMES: Record<string, string> = {
  forwarded: 'let through',
  link_exchanged: 'link exchanged for a cookie',
  no_link: 'refused: no link or cookie',
  bad_link: 'refused: bad link or cookie',
  expired_link: 'refused: link expired',
  revoked: 'refused: link revoked',
  busy: 'refused: busy',
  gateway_down: 'gateway not answering',
};

/** One call through a tunnel: when, the request (method and path, never a token), its outcome. */
export function tunnelCallRow(e: TunnelAccessView): {
  when: string;
  request: string;
  outcome: string;
  refused: boolean;
} {
  const when = formatTime(e.time);
  const refused = e.outcome !== 'forwarded' && e.outcome !== 'link_exchanged';
  return {
    when,
    request: e.method,
    outcome: `${OUTCOMES[e.outcome] ?? e.outcome} (${e.status}, ${e.durationMs} ms)`,
    refused,
  };
}

/** A capsule's gateway URL as callers reach it through a tunnel (same path, the tunnel's origin). */
export function throughTunnel(publicUrl: string, gatewayUrl: string): string {
  try {
    const u = new URL(gatewayUrl);
    return new URL(`${u.pathname}${u.search}`, publicUrl).toString();
  } catch {
    return publicUrl;
  }
}
