import { liveFormation, type FormationMember, type FormationResolver, type Session } from '../runtime';
import type { IssueView } from '../../src-shared/contract';
import type { StudioContext } from './context';

// How a capsule's delegate_task reaches the others of the open formation by name (its formation
// id or manifest name): a running capsule at its door (so its allow list decides), one that is not
// running as a sub-capsule started from its manifest, one that is not running and whose manifest
// does not load is named with that reason (a running one stays reachable whatever its file says
// now). Read fresh at every delegation.

/** A manifest issue as one line: "line 30, column 1: …", or its field path when it has no line. */
const issueText = (i: IssueView) =>
  `${i.line !== undefined ? `line ${i.line}${i.column !== undefined ? `, column ${i.column}` : ''}: ` : i.path ? `${i.path}: ` : ''}${i.message}`;

export function formationResolver(ctx: StudioContext, selfId: string): FormationResolver {
  // The formation of the workspace the capsule was launched from, even once another is open.
  const dir = ctx.current()?.dir ?? '';
  return liveFormation(() => {
    const ws = ctx.workspaceAt(dir);
    if (!ws) return [];
    return ws
      .snapshot()
      .capsules.filter((c) => c.id !== selfId)
      .map((c): FormationMember => {
        const session: Session | undefined = ctx.sessions.sessionIn(dir, c.id);
        const issue = c.summary.issues[0];
        return {
          names: [...new Set([c.id, c.summary.name ?? c.id])],
          manifestPath: c.file,
          ...(c.summary.port ? { port: c.summary.port } : {}),
          ...(session ? { session } : {}),
          ...(issue ? { problem: issueText(issue) } : {}),
        };
      });
  });
}
