import { isDeepStrictEqual } from 'node:util';
import type { Manifest } from '../../src-shared/manifest';
import { followPortOps } from '../../src-shared/manifest';
import { editManifestSource, loadManifestFile } from '../manifest';
import { policyOf, samePolicy } from '../runtime';
import { manifestProblem } from './manifest-view';
import type { CapsuleSessions, Emit } from './sessions';
import type { Workspace } from './workspace';

// What an edit means for the formation while it runs, worked out after every change (a save in
// the panel, an edge drawn or deleted, a hand edit on disk):
// - a worker whose port moved takes the allow entries that named its old port with it (a running
//   worker's door stays where it is until it restarts, and so do the entries);
// - a running capsule's policy (allow list, peer export) is applied to its session at once;
// - any other change to a running capsule's manifest is remembered as "restart to apply" until the
//   session that runs the old version ends. Nothing is ever silently ignored;
// - a capsule whose launch failed loses its error badge once its manifest is edited.

export interface LiveEdits {
  /** Runs the three steps above on the workspace as it is now; returns the names of the running capsules whose policy changed. */
  reconcile(ws: Workspace, opts?: { quiet?: boolean }): string[];
  /** Why the running session of `id` differs from its manifest, if it does. */
  restartReason(id: string): string | undefined;
}

interface Deps {
  sessions: CapsuleSessions;
  emit: Emit;
  env?: Record<string, string | undefined>;
}

/** A manifest without the two fields a running session can take live. */
function withoutPolicy(m: Manifest): unknown {
  const { capabilities, exports: _exports, ...rest } = m;
  return { ...rest, shell: capabilities?.shell ?? null };
}

export function createLiveEdits(deps: Deps): LiveEdits {
  /** The last port each capsule was reachable on (the one it runs on, else its pin), per workspace. */
  const lastPorts = new Map<string, number>();
  /** The manifest hash each capsule had when last seen, per workspace. */
  const lastHashes = new Map<string, string>();
  /** id -> the session whose manifest is out of date, and why. */
  const pending = new Map<string, { sessionId: string; reason: string }>();

  const runningPort = (id: string): number | undefined => {
    const url = deps.sessions.status(id).url;
    return url ? Number(new URL(url).port) || undefined : undefined;
  };

  function followPorts(ws: Workspace): void {
    for (const c of ws.snapshot().capsules) {
      const key = `${ws.dir}\0${c.id}`;
      // Where its door is: the port it runs on (a new pin applies when it restarts), else its pin.
      const port = runningPort(c.id) ?? c.summary.port ?? undefined;
      const last = lastPorts.get(key);
      if (port === undefined) continue;
      lastPorts.set(key, port);
      if (last === undefined || last === port) continue;
      for (const other of ws.snapshot().capsules) {
        if (other.id === c.id) continue;
        const ops = followPortOps(other.summary.allow, last, port);
        if (!ops.length) continue;
        try {
          const { source } = ws.readManifestNow(other.id);
          ws.writeManifest(other.id, editManifestSource(source, ops));
          deps.emit('notice.raised', {
            level: 'info',
            message: `${other.summary.name ?? other.id} now reaches ${c.summary.name ?? c.id} on its new port ${port} (was ${last}).`,
          });
        } catch (err) {
          deps.emit('notice.raised', {
            level: 'error',
            message: `${c.summary.name ?? c.id} moved to port ${port}, but ${other.manifestPath} could not follow: ${(err as Error).message}`,
          });
        }
      }
    }
  }

  /** A failed launch's badge goes once its manifest is edited: the next launch tells whether it is fixed. */
  function clearFixedFailures(ws: Workspace): void {
    for (const c of ws.snapshot().capsules) {
      const key = `${ws.dir}\0${c.id}`;
      const last = lastHashes.get(key);
      lastHashes.set(key, c.hash);
      if (last !== undefined && last !== c.hash && deps.sessions.status(c.id).state === 'failed')
        deps.sessions.clearFailure(c.id);
    }
  }

  /** id -> the session and manifest hash last compared, so an unchanged manifest is not read again (a drag changes no manifest). */
  const compared = new Map<string, string>();

  function applyToSessions(ws: Workspace): string[] {
    const applied: string[] = [];
    const byId = new Map(ws.snapshot().capsules.map((c) => [c.id, c]));
    for (const id of deps.sessions.running()) {
      const c = byId.get(id);
      let session;
      try {
        session = deps.sessions.session(id);
      } catch {
        continue;
      }
      if (!c) continue;
      const seen = `${session.id}:${c.hash}`;
      if (compared.get(id) === seen) continue;
      compared.set(id, seen);
      const loaded = loadManifestFile(c.file, deps.env);
      if (!loaded.ok) {
        const problem =
          manifestProblem(c.manifestPath, c.summary.issues) ??
          `${c.manifestPath}: ${loaded.issues[0]?.message ?? 'does not load'}`;
        pending.set(id, {
          sessionId: session.id,
          reason: `The saved manifest does not load (${problem}); the session keeps running the version it was launched with. Fix it to restart.`,
        });
        continue;
      }
      const next = policyOf(loaded.manifest);
      if (!samePolicy(policyOf(session.manifest), next)) {
        session.updatePolicy(next);
        applied.push(session.manifest.name);
      }
      if (isDeepStrictEqual(withoutPolicy(loaded.manifest), withoutPolicy(session.manifest))) pending.delete(id);
      else pending.set(id, { sessionId: session.id, reason: 'Saved changes apply when the capsule restarts.' });
    }
    return applied;
  }

  return {
    reconcile(ws, opts = {}) {
      followPorts(ws);
      clearFixedFailures(ws);
      const applied = applyToSessions(ws);
      if (applied.length && !opts.quiet)
        deps.emit('notice.raised', {
          level: 'info',
          message: `Applied to the running ${applied.join(', ')}: allow list and peer export.`,
        });
      return applied;
    },
    restartReason(id) {
      const p = pending.get(id);
      if (!p) return undefined;
      const running = deps.sessions.status(id).sessionId;
      if (running !== p.sessionId) {
        pending.delete(id);
        return undefined;
      }
      return p.reason;
    },
  };
}
