import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';

// A big past session in a capsule home, for the trace-open measurement: `events` synthetic trace
// lines written through the product's trace writer into <home>/records/<id>/trace.jsonl, then
// indexed into <home>/studio.db (where the Studio's trace store looks, next to the records
// folder), so that opening it in the Studio measures opening, not first indexing.
// The work runs in a child process through tsx, the way the CLI runs, so a million lines neither
// block the Playwright worker nor depend on how the store does its indexing inside.

export interface PastSession {
  id: string;
  /** Lines in its trace.jsonl. */
  events: number;
  tracePath: string;
  /** The capsule name its session_start names. */
  capsule: string;
  writeMs: number;
  indexMs: number;
}

const ROOT = resolve(__dirname, '../..');

/**
 * Writes and indexes a past session of about `events` lines (a multiple of 10, plus 2) under
 * `home`; `indexed: false` leaves the index to the Studio (a trace it has never seen).
 */
export function recordPastSession(
  home: string,
  events: number,
  timeoutMs = 120_000,
  o: { indexed?: boolean } = {},
): Promise<PastSession> {
  return new Promise((ok, fail) =>
    execFile(
      process.execPath,
      [
        '-r',
        'tsx/cjs',
        join(__dirname, 'record-past-session.ts'),
        home,
        String(events),
        ...(o.indexed === false ? ['unindexed'] : []),
      ],
      { cwd: ROOT, timeout: timeoutMs, maxBuffer: 1 << 20 },
      (err, stdout, stderr) => {
        if (err) return fail(new Error(`recording a past session failed: ${stderr || err.message}`));
        ok(JSON.parse(stdout.trim().split('\n').pop()!) as PastSession);
      },
    ),
  );
}
