import { liveFormation, type FormationMember, type FormationResolver, type Session } from '../runtime';
import type { StudioContext } from './context';

// How a capsule's delegate_task reaches the others of the open formation by name (its formation
// id or manifest name): a running capsule at its door (so its allow list decides), one that is not
// running as a sub-capsule started from its manifest. Read fresh at every delegation.

export function formationResolver(ctx: StudioContext, selfId: string): FormationResolver {
  return liveFormation(() => {
    const ws = ctx.current();
    if (!ws) return [];
    return ws
      .snapshot()
      .capsules.filter((c) => c.id !== selfId && c.summary.issues.length === 0)
      .map((c): FormationMember => {
        let session: Session | undefined;
        try {
          session = ctx.sessions.session(c.id);
        } catch {
          session = undefined;
        }
        return { names: [...new Set([c.id, c.summary.name ?? c.id])], manifestPath: c.file, ...(c.summary.port ? { port: c.summary.port } : {}), ...(session ? { session } : {}) };
      });
  });
}
