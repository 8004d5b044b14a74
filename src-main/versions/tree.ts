import git, { type TreeEntry } from 'isomorphic-git';
import { gitFs, type WorkspaceRepo } from './repo';

// A commit's tree with some files replaced, built straight in the object store. A Studio step
// commits exactly the files it kept, whatever else the user has staged in the index, so a hand
// `git add` in progress is neither committed by the Studio nor lost.

/** path (repository-relative) -> blob oid, or null to delete it. */
export type TreeChanges = Map<string, string | null>;

export async function updateTree(
  repo: WorkspaceRepo,
  base: string | undefined,
  changes: TreeChanges,
  cache: object,
): Promise<string | undefined> {
  let entries: TreeEntry[] = [];
  if (base) entries = (await git.readTree({ fs: gitFs, dir: repo.root, oid: base, cache })).tree;
  const here = new Map(entries.map((e) => [e.path, e]));
  const below = new Map<string, TreeChanges>();
  for (const [path, oid] of changes) {
    const slash = path.indexOf('/');
    if (slash < 0) {
      if (oid === null) here.delete(path);
      else here.set(path, { mode: '100644', path, oid, type: 'blob' });
      continue;
    }
    const head = path.slice(0, slash);
    if (!below.has(head)) below.set(head, new Map());
    below.get(head)!.set(path.slice(slash + 1), oid);
  }
  for (const [name, sub] of below) {
    const existing = here.get(name);
    const tree = await updateTree(repo, existing?.type === 'tree' ? existing.oid : undefined, sub, cache);
    if (tree) here.set(name, { mode: '040000', path: name, oid: tree, type: 'tree' });
    else here.delete(name);
  }
  // git keeps no empty folders.
  if (!here.size) return undefined;
  return git.writeTree({ fs: gitFs, dir: repo.root, tree: [...here.values()] });
}
