import { matchAllow } from '../../../src-shared/manifest';
import type { FormationResolver } from './formation';

// `to: "*"` in a delegate_task call means "every worker this capsule may reach": the capsules of
// its formation whose door its allow list admits (in the Studio, the workers its edges point at),
// plus the agents its allow list names by URL. It is expanded when the call is made, from the
// allow list as it is then, so an edge drawn or removed while the capsule runs counts at once.

/** The `to` that names every reachable worker. */
export const EVERY_REACHABLE = '*';

/** Most workers one `*` call fans out to: a bigger formation is cut to the first 32 (formation order, then allowed URLs). */
export const MAX_FAN_OUT = 32;

const isUrlEntry = (entry: string) => /^https?:\/\//i.test(entry);

/** Names (formation capsules) and URLs (allowed agents outside it) a `*` delegation goes to. */
export function reachableTargets(allow: readonly string[], formation: FormationResolver | undefined): string[] {
  const members = formation?.doors?.() ?? [];
  const reached = members.filter((m) => m.urls.some((u) => matchAllow(u, allow) !== undefined));
  // A URL entry that is no member's door is an agent the capsule may call (a remote's edge).
  const others = allow.filter(
    (e) => isUrlEntry(e) && !members.some((m) => m.urls.some((u) => matchAllow(u, [e]) !== undefined)),
  );
  return [...new Set([...reached.map((m) => m.name), ...others])].slice(0, MAX_FAN_OUT);
}

/** The per-worker argument sets of a `*` call, or undefined when the call names one peer. */
export function expandEveryReachable(
  args: Record<string, unknown>,
  allow: readonly string[],
  formation: FormationResolver | undefined,
): Record<string, unknown>[] | undefined {
  if (args.to !== EVERY_REACHABLE) return undefined;
  return reachableTargets(allow, formation).map((to) => ({ ...args, to }));
}

/** What a `*` call that reaches nobody answers (the model, and the rehearsal's text, see it). */
export function noneReachable(capsule: string): string {
  return `no worker is reachable from ${capsule}: its capabilities.network.allow names no capsule of this formation and no agent URL (in the Studio, draw an edge from ${capsule} to a worker)`;
}
