import { matchAllow } from '../../../src-shared/manifest';
import { listRunningSessions, listRunningSessionsAsync, type RunningSession } from '../../trace';
import type { FormationResolver } from './formation';

// The formation a capsule belongs to when nobody named one: the capsules running on this machine
// (the running-session files `capsule ps` reads), found by name, newest first. The allow list
// still decides whether a door may be reached; this only turns a name into its address. A
// delegation by name or by URL reads the running files off the main thread; the names listed in
// delegate_task's description (once, when the session starts) and the doors a `*` call fans out
// to (the tool's expand step, which answers at once) read them on it: a few small files.

/** Whether a URL the model gave is this door: the name localhost stands for the door's own loopback address. */
function isDoor(url: string, doorUrl: string): boolean {
  try {
    const u = new URL(url);
    if (u.hostname.toLowerCase() === 'localhost') u.hostname = new URL(doorUrl).hostname;
    return matchAllow(u, [doorUrl]) !== undefined;
  } catch {
    return false;
  }
}

const door = (s: RunningSession) => ({
  kind: 'door' as const,
  url: s.url,
  capsule: s.name,
  version: s.version,
  sessionId: s.id,
  workdir: s.workdir,
});

export function runningFormation(runDir: string): FormationResolver {
  return {
    async resolve(name) {
      const s = (await listRunningSessionsAsync(runDir, { prune: false })).find((r) => r.name === name);
      return s ? door(s) : undefined;
    },
    // A door's URL names its session (localhost or the address it printed).
    async byUrl(url) {
      const s = (await listRunningSessionsAsync(runDir, { prune: false })).find((r) => isDoor(url, r.url));
      return s ? door(s) : undefined;
    },
    names: () => [...new Set(listRunningSessions(runDir, { prune: false }).map((r) => r.name))],
    doors: () => listRunningSessions(runDir, { prune: false }).map((r) => ({ name: r.name, urls: [r.url] })),
  };
}
