import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findTraceFiles, sessionIdOfTrace, streamTraceLines } from '../trace';
import { sessionReader, type RecordedSession, type RecordedTask } from './tasks';

// A formation run as it is recorded on this machine: the session asked for, and every session
// its tasks delegated to, followed hop by hop. A sub-capsule's records are under the delegating
// session's children/ folder; a peer that was already running has its own records folder, and
// only its tasks that carry this run's traceparent belong to the run (the peer may have served
// other callers too).

export interface RecordedCapsule {
  capsule: string;
  version: string;
  model: string;
  driver: string;
  manifestPath?: string;
  /** The sessions of this capsule that took part (a sub-capsule may be started more than once). */
  sessionIds: string[];
  tasks: RecordedTask[];
}

export interface RecordedRun {
  /** The capsule the run was asked of (the session given to `rehearse`). */
  entry: string;
  sessionId: string;
  capsules: RecordedCapsule[];
  notes: string[];
  /** Session id -> its trace file, for every session of the run (the replay reads their lines). */
  paths: Record<string, string>;
}

/** Bounds the walk: a formation deeper or wider than this is cut there, and says so. */
const MAX_SESSIONS = 256;

/**
 * One session's tasks, read without blocking: the Studio's replay, rehearsal and fork run this in
 * the window's process, so the file is read in pieces and each piece folded as it arrives (never
 * the whole trace at once).
 */
export async function readRecordedSession(path: string): Promise<RecordedSession> {
  const reader = sessionReader();
  await streamTraceLines(path, {}, (batch) => {
    for (const l of batch) if ('event' in l) reader.push(l.event);
  });
  return reader.session();
}

/** `taskId`: only that task of the session asked for, and what it caused (else every task of it). */
export async function gatherRun(
  tracePath: string,
  recordsRoot: string,
  opts: { taskId?: string } = {},
): Promise<RecordedRun> {
  const root = await readRecordedSession(tracePath);
  const notes: string[] = [];
  const capsules = new Map<string, RecordedCapsule>();
  const sessionPaths = new Map<string, string>([[root.sessionId, tracePath]]);
  let everyTrace: string[] | undefined;
  const allTraces = () => (everyTrace ??= findTraceFiles(recordsRoot));

  const locate = (sessionId: string, from: RecordedSession): string | undefined => {
    const known = sessionPaths.get(sessionId);
    if (known) return known;
    const direct = join(recordsRoot, sessionId, 'trace.jsonl');
    if (existsSync(direct)) return direct;
    const near = from.workdir ? findTraceFiles(join(from.workdir, 'children')) : [];
    return [...near, ...allTraces()].find((p) => sessionIdOfTrace(p) === sessionId);
  };
  let byTraceparent: Map<string, string> | undefined;
  const locateByTraceparent = async (tp: string): Promise<string | undefined> => {
    if (!byTraceparent) {
      byTraceparent = new Map();
      for (const p of allTraces())
        for (const t of (await readRecordedSession(p)).tasks) if (t.traceparent) byTraceparent.set(t.traceparent, p);
    }
    return byTraceparent.get(tp);
  };

  const add = (s: RecordedSession, tasks: RecordedTask[]) => {
    const name = s.capsule || s.sessionId;
    let c = capsules.get(name);
    if (!c) {
      c = {
        capsule: name,
        version: s.version,
        model: s.model,
        driver: s.driver,
        manifestPath: s.manifestPath,
        sessionIds: [],
        tasks: [],
      };
      capsules.set(name, c);
    }
    if (!c.sessionIds.includes(s.sessionId)) c.sessionIds.push(s.sessionId);
    c.tasks.push(...tasks);
  };

  const visited = new Set<string>();
  let cut = false;
  const walk = async (s: RecordedSession, tasks: RecordedTask[]): Promise<void> => {
    add(s, tasks);
    for (const task of tasks) {
      for (const d of task.delegations) {
        const key = `${d.childSessionId}|${d.traceparent}`;
        if (visited.has(key)) continue;
        visited.add(key);
        if (visited.size > MAX_SESSIONS) {
          if (!cut) notes.push(`the run delegates more than ${MAX_SESSIONS} times; the rest is not followed`);
          cut = true;
          return;
        }
        const path =
          (d.childSessionId && locate(d.childSessionId, s)) ||
          (d.traceparent && (await locateByTraceparent(d.traceparent)));
        if (!path) {
          notes.push(
            `${d.capsule || d.to}: its records (session ${d.childSessionId || 'unknown'}) are not on this machine; in the replay it answers with acknowledgements`,
          );
          continue;
        }
        const peer = await readRecordedSession(path);
        sessionPaths.set(peer.sessionId, path);
        // The peer names itself: a delegation addressed by URL is to this capsule.
        if (peer.capsule) d.capsule = peer.capsule;
        // The peer's tasks that this delegation caused (same traceparent); a sub-capsule started
        // for the delegation has no others.
        const caused = peer.tasks.filter((t) => !d.traceparent || t.traceparent === d.traceparent);
        await walk(peer, caused);
      }
    }
  };
  await walk(root, opts.taskId ? root.tasks.filter((t) => t.taskId === opts.taskId) : root.tasks);
  return {
    entry: root.capsule || root.sessionId,
    sessionId: root.sessionId,
    capsules: [...capsules.values()],
    notes,
    paths: Object.fromEntries(sessionPaths),
  };
}
