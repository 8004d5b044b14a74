import type { AgentCard } from '../../src-shared/a2a';
import type { RemoteCardView } from '../../src-shared/contract';
import { verifyRemoteCard } from '../gateway/remote-verify'; // signed agent cards

// Fetches a remote agent's card for its node. The URL may be the card itself or the agent's base
// URL (then the well-known path is tried). Timeouts and bad cards become a message on the node.

const WELL_KNOWN = '/.well-known/agent-card.json';

export function cardUrlOf(url: string): string {
  const u = new URL(url);
  if (u.pathname.endsWith('.json')) return u.href;
  return new URL(WELL_KNOWN, u.origin).href;
}

export function toCardView(card: AgentCard): RemoteCardView {
  return {
    name: String(card.name ?? ''),
    description: String(card.description ?? ''),
    version: String(card.version ?? ''),
    skills: (card.skills ?? []).map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description ?? '',
      tags: s.tags ?? [],
    })),
    interfaces: (card.supportedInterfaces ?? []).map((i) => ({
      url: i.url,
      protocolBinding: i.protocolBinding,
      protocolVersion: i.protocolVersion,
    })),
  };
}

/** The address an edge to this remote writes: its JSON-RPC interface URL, else the card's origin. */
export function remoteAddress(url: string, card?: RemoteCardView): string {
  const jsonrpc = card?.interfaces.find((i) => i.protocolBinding === 'JSONRPC') ?? card?.interfaces[0];
  return jsonrpc?.url ?? new URL(url).origin;
}

export async function fetchRemoteCard(
  url: string,
  timeoutMs = 5000,
): Promise<{ card: RemoteCardView } | { error: string }> {
  const target = cardUrlOf(url);
  try {
    const res = await fetch(target, {
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'follow',
      headers: { accept: 'application/json' },
    });
    if (!res.ok) return { error: `${target} answered HTTP ${res.status}` };
    const body = (await res.json()) as AgentCard;
    if (
      !body ||
      typeof body !== 'object' ||
      typeof body.name !== 'string' ||
      !Array.isArray(body.supportedInterfaces)
    ) {
      return { error: `${target} is not an A2A 1.0 agent card (no name or supportedInterfaces)` };
    }
    return { card: { ...toCardView(body), signature: await verifyRemoteCard(body, target) } };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    if (e.name === 'TimeoutError') return { error: `${target} did not answer within ${timeoutMs / 1000} s` };
    if (e.cause?.code === 'ECONNREFUSED') return { error: `Nothing is listening at ${new URL(target).host}` };
    return { error: `Cannot fetch ${target}: ${e.cause?.code ?? e.message}` };
  }
}
