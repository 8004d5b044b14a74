import { liveFormation, type FormationMember, type FormationResolver, type Session } from '../runtime';
import type { StudioContext } from './context';

// How a capsule's delegate_task reaches the others of the open formation by name (its formation
// id or manifest name): a running capsule at its door (so its allow list decides), one that is not
// running as a sub-capsule started from its manifest. Read fresh at every delegation.

export function formationResolver(ctx: StudioContext, selfId: string): FormationResolver {
  // The formation of the workspace the capsule was launched from, even once another is open.
  const dir = ctx.current()?.dir ?? '';
  return liveFormation(() => {
    const ws = ctx.workspaceAt(dir);
    if (!ws) return [];
    return ws
      .snapshot()
      .capsules.filter((c) => c.id !== selfId && c.summary.issues.length === 0)
      .map((c): FormationMember => {
        const session: Session | undefined = ctx.sessions.sessionIn(dir, c.id);
        return {
          names: [...new Set([c.id, c.summary.name ?? c.id])],
          manifestPath: c.file,
          ...(c.summary.port ? { port: c.summary.port } : {}),
          ...(session ? { session } : {}),
        };
      });
  });
}
