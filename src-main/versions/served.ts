import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentCard } from '../../src-shared/a2a';
import { agentCardOf } from '../door';
import type { ResolvedCapsule } from '../gateway';
import type { Session, SessionOptions } from '../runtime/api';
import { staticFormation, type FormationTarget } from '../runtime/tools';
import { findRepo } from './repo';
import { materialize } from './publish';
import { readPublished } from './published';
import { readVersion, readWorkingVersion } from './snapshot';

// The published version as outside callers meet it: an exposed capsule is served by its own
// session started from the published version's manifest (its workers started from the same
// version when it delegates), apart from the Studio's draft session, so editing and relaunching
// in the Studio never changes what callers get. A newer publish starts a new session; the one of
// the older version keeps running until its tasks have finished, then ends.

export interface PublishedServing {
  /**
   * The capsule as callers get it: its published session, `draft()` when nothing is published,
   * undefined when the published version has no such capsule.
   */
  resolve(dir: string, id: string, draft: () => ResolvedCapsule | undefined): Promise<ResolvedCapsule | undefined>;
  dispose(): Promise<void>;
}

interface Served {
  version: string;
  session: Session;
  card: AgentCard;
}

const RETIRE_POLL_MS = 500;

export function createPublishedServing(opts: { dataDir: string; startSession(o: SessionOptions): Promise<Session>; env?: Record<string, string | undefined>; recordsRoot?: string }): PublishedServing {
  const served = new Map<string, Promise<Served | undefined>>();
  const retiring = new Set<Session>();
  const timers = new Set<NodeJS.Timeout>();

  /** Ends an older version's session once it has no task running or queued. */
  const retire = (session: Session) => {
    retiring.add(session);
    const check = () => {
      const s = session.status();
      if (s.state === 'ended') return void retiring.delete(session);
      if (s.running === null && s.queued === 0) {
        retiring.delete(session);
        void session.end('a newer version was published').catch(() => undefined);
        return;
      }
      const t = setTimeout(() => (timers.delete(t), check()), RETIRE_POLL_MS);
      timers.add(t);
    };
    check();
  };

  const start = async (dir: string, id: string, version: string): Promise<Served | undefined> => {
    const repo = await findRepo(dir);
    if (!repo) return undefined;
    const files = await readVersion(repo, version, {});
    if (!files?.capsules.some((c) => c.id === id)) return undefined;
    const folder = join(opts.dataDir, version);
    if (!existsSync(folder)) await materialize(repo, version, folder);
    const members = readWorkingVersion(folder).capsules;
    const targets: Record<string, FormationTarget> = {};
    for (const m of members) if (m.id !== id) targets[m.id] = { kind: 'manifest', manifestPath: join(folder, m.path) };
    const entry = members.find((m) => m.id === id)!;
    const session = await opts.startSession({ manifestPath: join(folder, entry.path), env: opts.env, recordsRoot: opts.recordsRoot, port: 0, formation: staticFormation(targets) });
    const card = agentCardOf(session);
    // The card says which version callers get: the manifest's version with the published one as build metadata.
    return { version, session, card: { ...card, version: `${card.version}+${version.slice(0, 7)}` } };
  };

  return {
    async resolve(dir, id, draft) {
      const published = readPublished(dir);
      if (!published) return draft();
      const key = `${dir}\0${id}`;
      let held = await served.get(key);
      if (!held || held.version !== published.version || held.session.status().state === 'ended') {
        if (held && held.session.status().state !== 'ended') retire(held.session);
        // One start per version, however many callers arrive while it starts.
        const starting = start(dir, id, published.version).catch(() => undefined);
        served.set(key, starting);
        held = await starting;
        if (!held && served.get(key) === starting) served.delete(key);
      }
      return held && { url: held.session.url, card: held.card, ...(held.session.manifest.accepts ? { accepts: held.session.manifest.accepts } : {}) };
    },
    async dispose() {
      for (const t of timers) clearTimeout(t);
      const sessions = [...retiring];
      for (const p of served.values()) {
        const s = await p;
        if (s) sessions.push(s.session);
      }
      served.clear();
      await Promise.all(sessions.map((s) => s.end('the Studio is closing').catch(() => undefined)));
    },
  };
}
