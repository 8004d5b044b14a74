import { matchAllow } from '../../../src-shared/manifest';
import { listRunningSessions, type RunningSession } from '../../trace';
import type { FormationResolver } from './formation';

// The formation a capsule belongs to when nobody named one: the capsules running on this machine
// (the running-session files `capsule ps` reads), found by name, newest first. The allow list
// still decides whether a door may be reached; this only turns a name into its address.

const door = (s: RunningSession) => ({ kind: 'door' as const, url: s.url, capsule: s.name, version: s.version, sessionId: s.id, workdir: s.workdir });

export function runningFormation(runDir: string): FormationResolver {
  return {
    resolve(name) {
      const s = listRunningSessions(runDir, { prune: false }).find((r) => r.name === name);
      return s ? door(s) : undefined;
    },
    // A door's URL names its session (localhost and 127.0.0.1 alike, as the allow list reads them).
    byUrl(url) {
      const s = listRunningSessions(runDir, { prune: false }).find((r) => matchAllow(url, [r.url]));
      return s ? door(s) : undefined;
    },
    names: () => [...new Set(listRunningSessions(runDir, { prune: false }).map((r) => r.name))],
    doors: () => listRunningSessions(runDir, { prune: false }).map((r) => ({ name: r.name, urls: [r.url] })),
  };
}
