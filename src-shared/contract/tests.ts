import { command, runsHere, runsHereOnly } from './command';
import { z } from 'zod';

// The Studio's Tests panel: the workspace's saved tests (tests/*.yaml, what `capsule test` runs),
// run one at a time against the current manifests, offline, with the diff of a failing one.
// Spread into `commands` in commands.ts; the handlers live in src-main/regression.

const none = z.strictObject({}).optional();
/** A test's name: its file is tests/<name>.yaml. */
export const TEST_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/i;
const testName = z.string().regex(TEST_NAME, 'letters, digits, dot, dash and underscore (at most 63)');

/** An expectation as the test file states it: its kind and, in words, what it wants. */
export interface MatcherView {
  kind: 'exact' | 'contains' | 'regex' | 'schema';
  text: string;
}

export interface ExpectedDelegationView {
  from?: string;
  to: string;
  text?: MatcherView;
  data?: MatcherView;
  answer?: MatcherView;
}

export interface ExpectedTaskView {
  text: string;
  answer?: MatcherView;
  status?: string;
  delegations?: ExpectedDelegationView[];
}

export interface TestView {
  name: string;
  /** The capsule the tasks are sent to. */
  entry?: string;
  /** The session it was recorded from. */
  recordedFrom?: string;
  tasks: ExpectedTaskView[];
  /** Why the file cannot be read (the test then fails without running). */
  error?: string;
}

export interface ActualDelegationView {
  from: string;
  to: string;
  text: string;
  data?: Record<string, unknown>;
  answer: string;
}

export interface ActualTaskView {
  text: string;
  answer?: string;
  status?: string;
  delegations: ActualDelegationView[];
}

export interface TestMismatchView {
  /** Where: `task 1: delegations[0].answer`. */
  path: string;
  expected: string;
  actual: string;
}

export interface TestResultView {
  name: string;
  passed: boolean;
  durationMs: number;
  mismatches: TestMismatchView[];
  /** What the run did, task by task (absent when it could not run). */
  actual?: ActualTaskView[];
  error?: string;
}

export const testsCommands = {
  'tests.list': command<{ dir: string; tests: TestView[] }>()(
    "The open workspace's saved tests (tests/*.yaml) with their expectations, by name.",
    none,
    runsHere,
  ),
  'tests.run': command<TestResultView>()(
    "Runs one test against the workspace's current manifests, offline (each capsule replays the test's script), and compares its delegations and answers with the expectations. One test runs at a time; each task is bounded by the test's timeout_ms.",
    z.strictObject({ name: testName }),
    runsHere,
  ),
  'tests.saveFromSession': command<{ name: string; file: string; notes: string[] }>()(
    'Saves a recorded session as a test (tests/<name>.yaml, as `capsule rehearse --save-test`): its rehearsal scripts, its tasks, and what it did as the expectations. Refuses with `conflict` when the name is taken, unless `replace`.',
    z.strictObject({ sessionId: z.string().min(1).max(200), name: testName, replace: z.boolean().optional() }),
    runsHereOnly({ sessions: ['sessionId'] }),
  ),
} as const;
