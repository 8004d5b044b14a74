import { listRunningSessions } from '../../trace';
import type { FormationResolver } from './formation';

// The formation a capsule belongs to when nobody named one: the capsules running on this machine
// (the running-session files `capsule ps` reads), found by name, newest first. The allow list
// still decides whether a door may be reached; this only turns a name into its address.

export function runningFormation(runDir: string): FormationResolver {
  return {
    resolve(name) {
      const s = listRunningSessions(runDir, { prune: false }).find((r) => r.name === name);
      return s ? { kind: 'door', url: s.url, capsule: s.name, version: s.version, sessionId: s.id, workdir: s.workdir } : undefined;
    },
    names: () => [...new Set(listRunningSessions(runDir, { prune: false }).map((r) => r.name))],
  };
}
