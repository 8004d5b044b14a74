import { command, runsHere } from './command';
import { z } from 'zod';
import type { TestResultView } from './tests';

// The workspace's history (every Studio save is a step, kept in git in the workspace), the diff of
// two versions, restore, and the published version outside callers get through the gateway.
// Spread into `commands` in commands.ts; the handlers live in src-main/versions.

/** A version as history lists it: 4 to 40 hex digits of its commit id, or HEAD. */
const version = z
  .string()
  .regex(/^(HEAD|[0-9a-fA-F]{4,40})$/, 'a version id from the history (4 or more hex digits) or HEAD');

/** One step of the history: a Studio save, a publish, or a user's own commit. */
export interface StepView {
  version: string;
  short: string;
  message: string;
  author: string;
  /** Seconds since the epoch. */
  time: number;
  /** The capsules whose manifest the step added, removed or changed. */
  capsules: string[];
}

/** A capsule's manifest in two versions (null where it is absent). */
export interface CapsuleDiffView {
  id: string;
  change: 'added' | 'removed' | 'changed';
  path: string;
  before: string | null;
  after: string | null;
}

/** An edge of the graph added or removed between two versions: a permission granted or taken back. */
export interface EdgeDiffView {
  source: string;
  target: string;
  address: string;
  change: 'added' | 'removed';
}

export interface VersionDiffView {
  from: string;
  to: string;
  capsules: CapsuleDiffView[];
  edges: EdgeDiffView[];
  /** Every permission change, in words ("orchestrator may now call worker at localhost:7102"). */
  permissions: string[];
  /** formation.yaml itself changed (capsules listed, positions, remote agents). */
  formationChanged: boolean;
}

export interface HistoryView {
  /** False until the workspace's first saved step (it then has a repository). */
  started: boolean;
  steps: StepView[];
  published: PublishedView | null;
}

/** The version outside callers get, and how it came to be published. */
export interface PublishedView {
  version: string;
  short: string;
  /** When it was published (ISO 8601). */
  publishedAt: string;
  /** Tests that failed and were overridden (absent: all passed). */
  overridden?: string[];
}

export interface PublishAnswer {
  /** The version callers get now; null when failing tests refused the publish. */
  published: PublishedView | null;
  /** The step that recorded the publish (and the override, when there was one). */
  step?: StepView;
  /** Every test run against the version, expected beside actual for a failing one. */
  results: TestResultView[];
}

export const versionsCommands = {
  'history.list': command<HistoryView>()(
    "The open workspace's history, newest first (at most `limit` steps), with its published version.",
    z.strictObject({ limit: z.number().int().min(1).max(500).optional() }).optional(),
    runsHere,
  ),
  'history.diff': command<VersionDiffView>()(
    'What changed between two versions (`to` defaults to the files on disk now): manifests side by side, capsules added, removed or changed, and the edges (permissions) granted or taken back.',
    z.strictObject({ from: version, to: version.optional() }),
    runsHere,
  ),
  'history.restore': command<StepView>()(
    "Puts a version's formation and manifests back on disk as a new step (nothing is lost: the step before it stays in the history).",
    z.strictObject({ version }),
    runsHere,
  ),
  'history.publish': command<PublishAnswer>()(
    "Publishes a version (default: the draft, saved as a step first) as the one outside callers get through the gateway. The workspace's tests run against it first; a failing test refuses the publish unless `override`, which the history records with the failing tests' names. Publishing an earlier version rolls back.",
    z.strictObject({ version: version.optional(), override: z.boolean().optional() }),
    runsHere,
  ),
} as const;
