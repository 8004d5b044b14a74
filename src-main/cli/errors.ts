import { fsReason } from '../manifest';

// A mistake the user can fix (bad flag, unknown session, refused request): printed as one line,
// exit 1, never a stack trace.
export class UserError extends Error {
  override readonly name = 'UserError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

const VERBS: Record<string, string> = {
  mkdir: 'create',
  open: 'open',
  write: 'write',
  rename: 'replace',
  unlink: 'remove',
  scandir: 'list',
  read: 'read',
};

/**
 * A failed file-system call in words: what could not be done to which path and why, and where
 * the path is inside the capsule home, that the home must be a folder the user can write.
 * Undefined for any other error.
 */
export function describeFileError(err: unknown, home: string): string | undefined {
  const e = err as NodeJS.ErrnoException;
  const reason = err instanceof Error && typeof e.path === 'string' ? fsReason(e) : undefined;
  if (!reason) return undefined;
  const verb = (e.syscall && VERBS[e.syscall]) ?? 'use';
  const path = e.path as string;
  const inHome = path === home || path.startsWith(`${home}/`) || path.startsWith(`${home}\\`);
  const hint = inHome ? ` (records live under CAPSULE_HOME=${home}, which must be a folder you can write)` : '';
  return `cannot ${verb} ${path}: ${reason}${hint}`;
}
