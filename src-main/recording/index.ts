import { gatherRun, type RecordedRun } from './gather';
import { scriptFromTasks, type RehearsalScript } from './script';
import type { RecordedTask } from './tasks';
import { rehearsalManifestText, writeRehearsal } from './write';

// Record -> rehearse: a recorded session (of any driver, a real model's included) becomes a
// formation of rehearsal manifests that replays it offline. Used by `capsule rehearse` and
// `capsule test`; the conversion itself is pure (tasks.ts, script.ts).

export { recordedSession, type RecordedSession, type RecordedTask, type RecordedTurn } from './tasks';
export { scriptFromTasks, exactWhen, type RehearsalScript, type ScriptOptions } from './script';
export { gatherRun, readRecordedSession, type RecordedRun, type RecordedCapsule } from './gather';
export { REHEARSAL_DRIVER } from './write';

export interface RehearsalOptions {
  /** Root of the records folders (where peers' and children's traces are looked up). */
  recordsRoot: string;
  /** 1 keeps recorded timings, N replays N times faster, 0 with no delay. */
  speed: number;
}

export interface Rehearsal {
  run: RecordedRun;
  /** Capsule name -> script, entry capsule first. */
  scripts: Map<string, RehearsalScript>;
  /** Capsule name -> manifest text for the replay. */
  manifests: Map<string, string>;
  notes: string[];
}

const SAFE_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/i;

/** Reads the run behind a session's trace and makes every capsule's script and manifest. */
export async function makeRehearsal(tracePath: string, opts: RehearsalOptions): Promise<Rehearsal> {
  const run = await gatherRun(tracePath, opts.recordsRoot);
  const notes = [...run.notes];
  const names = new Set(run.capsules.map((c) => c.capsule));
  // A delegation the model addressed by URL goes, in the replay, to the capsule that answered it.
  const delegateTo = (to: string, task: RecordedTask) => {
    const d = task.delegations.find((x) => x.to === to && names.has(x.capsule));
    return d && /^[a-z][a-z0-9+.-]*:\/\/|:\d+/i.test(to) ? d.capsule : to;
  };
  const scripts = new Map<string, RehearsalScript>();
  const manifests = new Map<string, string>();
  for (const c of run.capsules) {
    if (!SAFE_NAME.test(c.capsule)) {
      notes.push(`a capsule named ${JSON.stringify(c.capsule)} cannot be a folder name; left out`);
      continue;
    }
    for (const t of c.tasks)
      for (const turn of t.turns)
        for (const call of turn.toolCalls)
          if (call.modelText !== undefined)
            notes.push(
              `${c.capsule}: task ${t.taskId} turn ${turn.turn}: the delegation to ${String(call.arguments.to ?? '?')} was edited at a breakpoint; the replay sends the edited message`,
            );
    const { script, notes: scriptNotes } = scriptFromTasks(c.tasks, {
      sessionId: c.sessionIds[0] ?? run.sessionId,
      speed: opts.speed,
      delegateTo,
    });
    notes.push(...scriptNotes.map((n) => `${c.capsule}: ${n}`));
    scripts.set(c.capsule, script);
    manifests.set(c.capsule, rehearsalManifestText(c, script, notes));
  }
  return { run, scripts, manifests, notes };
}

/** Writes a rehearsal as a workspace folder (formation.yaml and one manifest per capsule). */
export function saveRehearsal(dir: string, r: Rehearsal): Record<string, string> {
  const entries = r.run.capsules
    .filter((c) => r.manifests.has(c.capsule))
    .map((capsule) => ({ capsule, text: r.manifests.get(capsule.capsule)! }));
  return writeRehearsal(dir, entries).manifests;
}
export { askedOfRun, type AskedDelegation, type AskedTask } from './asked';
export { rehearsalManifestText } from './write';
export { prepareFork, forkOptions, ForkError, MAX_FORK_MESSAGE, type ForkRequest, type PreparedFork } from './fork';
export {
  MAX_FORK_DELEGATIONS,
  replayedDelegations,
  type DelegationEdit,
  type ForkDelegation,
} from './fork-delegations';
export { compareRuns, MAX_DIFF_TASKS, MAX_DIFF_TURNS } from './compare';
export { replayOf } from './replay';
