import * as fs from 'node:fs';
import { userInfo } from 'node:os';
import { relative, resolve, sep } from 'node:path';
import git from 'isomorphic-git';

// The git repository a workspace lives in, reached with isomorphic-git so the user's machine needs
// no git binary. A workspace may be the repository's root or a folder inside a bigger repository
// (then its files are `prefix/…` in every commit).

export interface WorkspaceRepo {
  /** The repository's working tree (the folder holding `.git`). */
  root: string;
  /** The workspace's folder inside it, with forward slashes ('' at the root). */
  prefix: string;
}

export const gitFs = fs;

/** The repository holding `dir`, or undefined when the workspace is in none. */
export async function findRepo(dir: string): Promise<WorkspaceRepo | undefined> {
  const abs = resolve(dir);
  try {
    const root = await git.findRoot({ fs, filepath: abs });
    return { root, prefix: relative(root, abs).split(sep).join('/') };
  } catch {
    return undefined;
  }
}

/** Creates a repository in the workspace folder (branch main). */
export async function initRepo(dir: string): Promise<WorkspaceRepo> {
  await git.init({ fs, dir: resolve(dir), defaultBranch: 'main' });
  return { root: resolve(dir), prefix: '' };
}

/** A path of the workspace as the repository names it. */
export const repoPath = (repo: WorkspaceRepo, rel: string): string => (repo.prefix ? `${repo.prefix}/${rel}` : rel);

/**
 * Who a Studio step is by: the repository's user.name and user.email (what a hand commit uses),
 * else git's own environment variables, else the login name on this machine.
 */
export async function authorOf(
  repo: WorkspaceRepo,
  env: Record<string, string | undefined> = process.env,
): Promise<{ name: string; email: string }> {
  const read = async (path: string) => {
    try {
      const v: unknown = await git.getConfig({ fs, dir: repo.root, path });
      return typeof v === 'string' && v.trim() ? v.trim() : undefined;
    } catch {
      return undefined;
    }
  };
  let login = 'studio';
  try {
    login = userInfo().username || login;
  } catch {
    // No passwd entry (a container): keep the default.
  }
  const name = (await read('user.name')) ?? env.GIT_AUTHOR_NAME ?? login;
  const email = (await read('user.email')) ?? env.GIT_AUTHOR_EMAIL ?? `${login}@localhost`;
  return { name, email };
}

/** The commit HEAD points at, or undefined in a repository with no commit yet. */
export async function headCommit(repo: WorkspaceRepo): Promise<string | undefined> {
  try {
    return await git.resolveRef({ fs, dir: repo.root, ref: 'HEAD' });
  } catch {
    return undefined;
  }
}

/** A file's text at a commit, or undefined when the commit has no such file. */
export async function readAt(
  repo: WorkspaceRepo,
  oid: string,
  rel: string,
  cache: object,
): Promise<string | undefined> {
  try {
    const { blob } = await git.readBlob({ fs, dir: repo.root, oid, filepath: repoPath(repo, rel), cache });
    return Buffer.from(blob).toString('utf8');
  } catch {
    return undefined;
  }
}
