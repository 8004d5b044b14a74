import type { AgentCard } from '../../src-shared/a2a';
import type { ResolvedCapsule } from './types';
import { listRunningSessions } from '../trace';

// Sessions started elsewhere on this machine (`capsule run`), found by name in the running
// files, so a headless gateway can serve them: the newest session of that name wins.

export function runningResolver(runDir: string) {
  const cards = new Map<string, AgentCard>();
  return async (name: string): Promise<ResolvedCapsule | undefined> => {
    const s = listRunningSessions(runDir).find((r) => r.name === name);
    if (!s) return undefined;
    let card = cards.get(s.id);
    if (!card) {
      try {
        const res = await fetch(new URL('/.well-known/agent-card.json', s.url), { signal: AbortSignal.timeout(3000) });
        if (!res.ok) return undefined;
        card = (await res.json()) as AgentCard;
        cards.set(s.id, card);
      } catch {
        return undefined;
      }
    }
    return { url: s.url, card };
  };
}
