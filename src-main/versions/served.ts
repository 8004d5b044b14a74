import { join } from 'node:path';
import type { AgentCard } from '../../src-shared/a2a';
import { agentCardOf } from '../door';
import type { ResolvedCapsule } from '../gateway';
import type { Session, SessionOptions } from '../runtime/api';
import { staticFormation, type FormationTarget } from '../runtime/tools';
import { findRepo } from './repo';
import { exists, materialize } from './publish';
import { readPublished } from './published';
import { readVersion, readWorkingVersion } from './snapshot';

// The published version as outside callers meet it: an exposed capsule is served by its own
// session started from the published version's manifest (its workers started from the same
// version when it delegates), apart from the Studio's draft session, so editing and relaunching
// in the Studio never changes what callers get.
//
// A newer publish (or a rollback) sends new tasks to the new version's session, but a task
// already running on the older one finishes there: the older session stays up, and every call
// that names one of its tasks (GetTask, CancelTask, SubscribeToTask, push configs, a reply to a
// task waiting for input) is routed to it by task id. Once it has nothing left to do, it lingers
// a while so a caller polling for the result still reads it, then ends.

export interface PublishedServing {
  /**
   * The capsule as callers get it: its published session, `draft()` when nothing is published,
   * undefined when the published version has no such capsule.
   */
  resolve(dir: string, id: string, draft: () => ResolvedCapsule | undefined): Promise<ResolvedCapsule | undefined>;
  dispose(): Promise<void>;
}

export interface PublishedServingOptions {
  dataDir: string;
  startSession(o: SessionOptions): Promise<Session>;
  env?: Record<string, string | undefined>;
  recordsRoot?: string;
  /** How long an older version's session stays up after its last task and last call (default 10 minutes). */
  lingerMs?: number;
}

interface Served {
  version: string;
  session: Session;
  card: AgentCard;
}

/** An older version's session, kept until its tasks are over and callers stopped asking about them. */
interface Retired extends Served {
  key: string;
  /** When it was last busy or last reached by a call. */
  lastUsed: number;
}

const RETIRE_POLL_MS = 500;
const LINGER_MS = 10 * 60_000;
/** Idle older sessions kept at most (the oldest end first); busy ones always stay. */
const MAX_IDLE_RETIRED = 8;

const isEnded = (s: Session) => s.status().state === 'ended';
const isBusy = (s: Session) => {
  const st = s.status();
  return st.running !== null || st.queued > 0;
};

export function createPublishedServing(opts: PublishedServingOptions): PublishedServing {
  const lingerMs = opts.lingerMs ?? LINGER_MS;
  const served = new Map<string, Promise<Served | undefined>>();
  const retired: Retired[] = [];
  let timer: NodeJS.Timeout | undefined;

  const endRetired = (r: Retired, reason: string) => {
    retired.splice(retired.indexOf(r), 1);
    void r.session.end(reason).catch(() => undefined);
  };
  /** Ends the older sessions that have been idle long enough, or past the bound; stops polling when none is left. */
  const sweep = () => {
    const now = Date.now();
    for (const r of [...retired]) {
      if (isEnded(r.session)) retired.splice(retired.indexOf(r), 1);
      else if (isBusy(r.session)) r.lastUsed = now;
      else if (now - r.lastUsed >= lingerMs) endRetired(r, 'a newer version was published');
    }
    const idle = retired.filter((r) => !isBusy(r.session)).sort((a, b) => a.lastUsed - b.lastUsed);
    for (const r of idle.slice(0, Math.max(0, idle.length - MAX_IDLE_RETIRED)))
      endRetired(r, 'a newer version was published');
    if (!retired.length && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  const retire = (key: string, s: Served) => {
    retired.push({ ...s, key, lastUsed: Date.now() });
    timer ??= setInterval(sweep, Math.min(RETIRE_POLL_MS, lingerMs));
    timer.unref?.();
    sweep();
  };
  /** The older session of this capsule that holds the task, marked as used. */
  const holderOf = (key: string, taskId: string): Retired | undefined => {
    const r = retired.find((x) => x.key === key && !isEnded(x.session) && x.session.taskState(taskId));
    if (r) r.lastUsed = Date.now();
    return r;
  };

  const start = async (dir: string, id: string, version: string): Promise<Served | undefined> => {
    const repo = await findRepo(dir);
    if (!repo) return undefined;
    const files = await readVersion(repo, version, {});
    if (!files?.capsules.some((c) => c.id === id)) return undefined;
    const folder = join(opts.dataDir, version);
    if (!(await exists(folder))) await materialize(repo, version, folder);
    const members = (await readWorkingVersion(folder)).capsules;
    const targets: Record<string, FormationTarget> = {};
    for (const m of members) if (m.id !== id) targets[m.id] = { kind: 'manifest', manifestPath: join(folder, m.path) };
    const entry = members.find((m) => m.id === id)!;
    const session = await opts.startSession({
      manifestPath: join(folder, entry.path),
      env: opts.env,
      recordsRoot: opts.recordsRoot,
      port: 0,
      formation: staticFormation(targets),
    });
    const card = agentCardOf(session);
    // The card says which version callers get: the manifest's version with the published one as build metadata.
    return { version, session, card: { ...card, version: `${card.version}+${version.slice(0, 7)}` } };
  };

  /** Starts serving `version`: the older session of it if still up (a rollback), else a new one; the one held is retired. */
  const switchTo = (
    key: string,
    dir: string,
    id: string,
    version: string,
    held: Served | undefined,
  ): Promise<Served | undefined> => {
    if (held && !isEnded(held.session)) retire(key, held);
    const back = retired.find((r) => r.key === key && r.version === version && !isEnded(r.session));
    if (back) retired.splice(retired.indexOf(back), 1);
    const starting = back ? Promise.resolve<Served>(back) : start(dir, id, version).catch(() => undefined);
    served.set(key, starting);
    void starting.then((now) => {
      if (!now && served.get(key) === starting) served.delete(key);
    });
    return starting;
  };

  return {
    async resolve(dir, id, draft) {
      const published = await readPublished(dir);
      if (!published) return draft();
      const key = `${dir}\0${id}`;
      const stale = (s: Served | undefined) => !s || s.version !== published.version || isEnded(s.session);
      const asked = served.get(key);
      let held = await asked;
      if (stale(held)) {
        // One switch per version, however many callers arrive while it starts.
        held = await (served.get(key) === asked ? switchTo(key, dir, id, published.version, held) : served.get(key));
      }
      if (!held) return undefined;
      const current = held.session;
      return {
        url: current.url,
        card: held.card,
        ...(current.manifest.accepts ? { accepts: current.manifest.accepts } : {}),
        ...(current.manifest.responds ? { responds: current.manifest.responds } : {}),
        session: current,
        // A task of an older version (or of the draft served before the first publish) is answered where it runs.
        sessionOf: (taskId) =>
          current.taskState(taskId) ? current : (holderOf(key, taskId)?.session ?? draft()?.sessionOf?.(taskId)),
      };
    },
    async dispose() {
      if (timer) clearInterval(timer);
      timer = undefined;
      const sessions = retired.splice(0).map((r) => r.session);
      for (const p of served.values()) {
        const s = await p;
        if (s) sessions.push(s.session);
      }
      served.clear();
      await Promise.all(sessions.map((s) => s.end('the Studio is closing').catch(() => undefined)));
    },
  };
}
