import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

// A failed download or build, remembered in a small JSON file so npm start does not spend
// seconds (or a 30 s stall) on it again at every start: it is tried again a day later, or at
// once when asked (npm run desktop:install). The stamp says what was tried (versions, platform):
// a different one is a new attempt.

export const RETRY_AFTER_MS = 24 * 3600_000;

export type FailureStamp = Record<string, string>;

/** Why to skip the attempt now (the last failure, with its age), or undefined to try. */
export function recentFailure(file: string, stamp: FailureStamp, now: number): string | undefined {
  let failed: { at?: unknown; reason?: unknown } & Record<string, unknown>;
  try {
    failed = JSON.parse(readFileSync(file, 'utf8')) as typeof failed;
  } catch {
    return undefined;
  }
  if (typeof failed.at !== 'number' || typeof failed.reason !== 'string') return undefined;
  if (Object.entries(stamp).some(([k, v]) => failed[k] !== v)) return undefined;
  if (now - failed.at >= RETRY_AFTER_MS || now < failed.at) return undefined;
  return `${failed.reason}; tried ${Math.round((now - failed.at) / 60_000)} min ago`;
}

export function rememberFailure(file: string, stamp: FailureStamp, now: number, reason: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ ...stamp, at: now, reason }, null, 2) + '\n');
}

export function forgetFailure(file: string): void {
  rmSync(file, { force: true });
}

/** Runs `attempt` unless the same one failed within the last day; remembers a failure, forgets it on success. */
export async function attemptOnceADay<T extends { ok: true } | { ok: false; reason: string }>(
  opts: { file: string; stamp: FailureStamp; retry?: boolean; now?: () => number },
  attempt: () => Promise<T>,
): Promise<T | { ok: false; reason: string }> {
  const now = opts.now ?? Date.now;
  const recent = opts.retry ? undefined : recentFailure(opts.file, opts.stamp, now());
  if (recent) return { ok: false, reason: recent };
  const result = await attempt();
  if (result.ok) forgetFailure(opts.file);
  else rememberFailure(opts.file, opts.stamp, now(), result.reason);
  return result;
}
