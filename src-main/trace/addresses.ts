import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readTraceLines } from './jsonl';
import { listRunningSessions, type RunningSession } from './running';
import type { SessionSummary } from './queries';
import type { TraceStore } from './store';

// Session addresses, the same for every command that names a session: `@1` (newest), `@2`, …;
// the last 4+ characters of an id; a full id; or a path to a trace.jsonl. They resolve over the
// running sessions (ps, cancel, stop, watch) or over every recorded one (trace show).

/** A session address that names nothing, or more than one thing. */
export class AddressError extends Error {
  override readonly name = 'AddressError';
}

const USAGE = 'use @1 (newest), @2, …, the last 4+ characters of a session id, the full id, or a path to a trace.jsonl';

export function isPathAddress(address: string): boolean {
  return address.endsWith('.jsonl') || address.includes('/') || address.includes('\\');
}

/** Picks one of `candidates` (newest first) by address. */
export function resolveAddress<T extends { id: string }>(
  address: string,
  candidates: readonly T[],
  what = 'session',
  describe: (c: T) => string = (c) => c.id,
): T {
  const a = address.trim();
  const ordinal = /^@(\d+)$/.exec(a);
  if (ordinal) {
    const n = Number(ordinal[1]);
    if (n < 1) throw new AddressError(`${a}: ordinals start at @1 (the newest ${what})`);
    if (!candidates.length) throw new AddressError(`${a}: there is no ${what}`);
    if (n > candidates.length)
      throw new AddressError(
        `${a}: there ${candidates.length === 1 ? 'is only 1' : `are only ${candidates.length}`} ${what}${candidates.length === 1 ? '' : 's'}`,
      );
    return candidates[n - 1];
  }
  if (a.startsWith('@')) throw new AddressError(`${a}: not a session address; ${USAGE}`);
  const exact = candidates.find((c) => c.id === a);
  if (exact) return exact;
  if (a.length < 4) throw new AddressError(`${a}: too short for a session address; ${USAGE}`);
  const matches = candidates.filter((c) => c.id.endsWith(a));
  if (matches.length === 1) return matches[0];
  if (matches.length > 1) {
    const list = matches.map((m) => `  ${describe(m)}`).join('\n');
    throw new AddressError(`${a} matches ${matches.length} ${what}s; use more characters:\n${list}`);
  }
  throw new AddressError(`no ${what} matches ${a}${candidates.length ? '' : ` (there is no ${what})`}`);
}

/** The session id on the first line of a trace file, or undefined. */
export function sessionIdOfTrace(path: string): string | undefined {
  // The file's session is its first event's, as every reader takes it (trace/line.ts).
  try {
    return readTraceLines(path, 0, 4096).session;
  } catch {
    return undefined;
  }
}

function tracePathOf(address: string): string {
  const p = resolve(address);
  if (existsSync(p) && statSync(p).isDirectory()) return join(p, 'trace.jsonl');
  return p;
}

const describeRunning = (s: RunningSession) => `${s.id}  ${s.name}  ${s.url}`;

/** Resolves an address over the sessions running on this machine. */
export function resolveRunningSession(address: string, runDir: string): RunningSession {
  const running = listRunningSessions(runDir);
  if (isPathAddress(address)) {
    const path = tracePathOf(address);
    const id = sessionIdOfTrace(path);
    if (!id) throw new AddressError(`${address}: not a readable trace.jsonl`);
    const hit = running.find((s) => s.id === id);
    if (!hit) throw new AddressError(`session ${id} (from ${address}) is not running`);
    return hit;
  }
  if (!running.length)
    throw new AddressError('no capsule session is running (start one with `capsule run --manifest <file>`)');
  return resolveAddress(address, running, 'running session', describeRunning);
}

const describeRecorded = (s: SessionSummary) =>
  `${s.id}  ${s.capsule ?? '?'}  ${s.startedAt ? new Date(s.startedAt).toISOString() : ''}`;

/** Resolves an address over every recorded session (the store must be synced first). */
export function resolveRecordedSession(address: string | undefined, store: TraceStore): SessionSummary {
  if (address && isPathAddress(address)) {
    const path = tracePathOf(address);
    if (!existsSync(path)) throw new AddressError(`${address}: no such trace file`);
    const report = store.ingestFile(path);
    const s = store.getSession(report.sessionId);
    if (!s) throw new AddressError(`${address}: holds no trace events`);
    return s;
  }
  const sessions = store.listSessions();
  if (!sessions.length) throw new AddressError('no recorded sessions yet');
  return resolveAddress(address ?? '@1', sessions, 'recorded session', describeRecorded);
}
