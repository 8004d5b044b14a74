import type { AgentCard } from '../../src-shared/a2a';
import type { ResolvedCapsule } from './types';
import { listRunningSessions } from '../trace';

// Capsules whose doors run outside this process, found by name so a headless gateway can serve
// them: sessions started elsewhere on this machine (`capsule run`, from the running files; the
// newest session of that name wins), or doors at fixed URLs (`capsule serve --capsule-url`, as
// the gateway of a formation deployed on a cluster reaches its capsules' Services).

function cardResolver(lookup: (name: string) => { key: string; url: string } | undefined) {
  const cards = new Map<string, AgentCard>();
  return async (name: string): Promise<ResolvedCapsule | undefined> => {
    const s = lookup(name);
    if (!s) return undefined;
    let card = cards.get(s.key);
    if (!card) {
      try {
        const res = await fetch(new URL('/.well-known/agent-card.json', s.url), { signal: AbortSignal.timeout(3000) });
        if (!res.ok) return undefined;
        card = (await res.json()) as AgentCard;
        cards.set(s.key, card);
      } catch {
        return undefined;
      }
    }
    return { url: s.url, card };
  };
}

export function runningResolver(runDir: string) {
  return cardResolver((name) => {
    const s = listRunningSessions(runDir).find((r) => r.name === name);
    return s ? { key: s.id, url: s.url } : undefined;
  });
}

/** Doors at fixed URLs by capsule name; a card is fetched once, when first asked for. */
export function urlResolver(urls: ReadonlyMap<string, string>) {
  return cardResolver((name) => {
    const url = urls.get(name);
    return url ? { key: name, url } : undefined;
  });
}
