// Why a file-system call failed, in words a user can act on: one table for every place that
// reports a failed read or write (the CLI, workspace files, the deploy writer), so the same
// errno always reads the same way.

const REASONS: Record<string, string> = {
  ENOTDIR: 'part of that path is a file, not a folder',
  EEXIST: 'a file of that name is in the way',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENOENT: 'it does not exist',
  EISDIR: 'it is a folder, not a file',
};

/** The reason for a failed file-system call, or undefined when err carries no errno we know. */
export function fsReason(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? REASONS[code] : undefined;
}

/** The reason in words when known, else the error's own message. */
export const describeFsError = (err: unknown): string => fsReason(err) ?? (err as Error)?.message ?? String(err);
