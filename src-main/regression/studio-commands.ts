import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import {
  CoreError,
  type ExpectedTaskView,
  type MatcherView,
  type TestResultView,
  type TestView,
} from '../../src-shared/contract';
import type { Rehearsal } from '../recording';
import type { Handlers, StudioContext } from '../workspace';
import { describeMatcher } from './expect';
import { listTests, runTest, TestRunCanceled, type TestOutcome } from './run';
import { saveTest } from './save';
import { readTestFile, TESTS_FOLDER, type Matcher, type TestFile } from './test-file';

// The Tests panel's commands: the same test files, runner and comparison as `capsule test`. Runs
// go one at a time (each builds and ends a whole offline formation; two at once would only share
// the two cores), each task bounded by its test's timeout_ms.

type TestCommand = 'tests.list' | 'tests.run' | 'tests.saveFromSession';

const kindOf = (m: Matcher): MatcherView['kind'] =>
  typeof m === 'string' || 'exact' in m ? 'exact' : 'contains' in m ? 'contains' : 'regex' in m ? 'regex' : 'schema';
const matcher = (m: Matcher | undefined): MatcherView | undefined =>
  m === undefined ? undefined : { kind: kindOf(m), text: describeMatcher(m) };

function expectedTasks(test: TestFile): ExpectedTaskView[] {
  return test.tasks.map((t) => ({
    text: t.text,
    ...(t.expect.answer !== undefined ? { answer: matcher(t.expect.answer) } : {}),
    ...(t.expect.status ? { status: t.expect.status } : {}),
    ...(t.expect.delegations
      ? {
          delegations: t.expect.delegations.map((d) => ({
            ...(d.from ? { from: d.from } : {}),
            to: d.to,
            text: matcher(d.text),
            data: matcher(d.data),
            answer: matcher(d.answer),
          })),
        }
      : {}),
  }));
}

/** A test's outcome as the Tests panel (and the publish dialog) shows it. */
export function testResultView(o: TestOutcome): TestResultView {
  return {
    name: o.name,
    passed: o.passed,
    durationMs: o.durationMs,
    mismatches: o.mismatches,
    ...(o.actual
      ? {
          actual: o.actual.map((t) => ({
            text: t.text,
            answer: t.answer,
            status: t.exitStatus,
            delegations: t.delegations,
          })),
        }
      : {}),
    ...(o.error ? { error: o.error } : {}),
  };
}

const nameOf = (file: string) => basename(file).replace(/\.ya?ml$/, '');

/** One saved test as the tests panel lists it, or why its file cannot be read. */
async function testView(file: string): Promise<TestView> {
  try {
    const test = readTestFile(await readFile(file, 'utf8'));
    return {
      name: nameOf(file),
      entry: test.entry,
      ...(test.recorded_from ? { recordedFrom: test.recorded_from } : {}),
      tasks: expectedTasks(test),
    };
  } catch (err) {
    return { name: nameOf(file), tasks: [], error: (err as Error).message };
  }
}

export function testsHandlers(
  ctx: StudioContext,
  rehearsalOf: (sessionId: string) => Promise<Rehearsal>,
): Pick<Handlers, TestCommand> {
  let running: string | undefined;
  const fileOf = (name: string) => listTests(ctx.workspace().dir).find((f) => nameOf(f) === name);
  return {
    async 'tests.list'() {
      const dir = ctx.workspace().dir;
      // The test files are read off the main thread: a folder of many or big ones holds no frame.
      const tests: TestView[] = [];
      for (const file of listTests(dir)) {
        tests.push(await testView(file));
      }
      return { dir: join(dir, TESTS_FOLDER), tests };
    },
    async 'tests.run'({ name }, call): Promise<TestResultView> {
      const file = fileOf(name);
      if (!file) throw new CoreError('not_found', `No test ${name} in ${join(ctx.workspace().dir, TESTS_FOLDER)}.`);
      if (running) throw new CoreError('conflict', `The test ${running} is running; one test runs at a time.`);
      running = name;
      try {
        // The caller stopping (Esc in the Studio) cancels the test's task and ends its run here.
        return testResultView(await runTest(ctx.workspace().dir, file, call?.signal));
      } catch (err) {
        if (err instanceof TestRunCanceled)
          throw new CoreError('canceled', `The test ${name} was canceled; its task was stopped.`);
        throw err;
      } finally {
        running = undefined;
      }
    },
    async 'tests.saveFromSession'({ sessionId, name, replace }) {
      const dir = ctx.workspace().dir;
      if (!replace && existsSync(join(dir, TESTS_FOLDER, `${name}.yaml`)))
        throw new CoreError('conflict', `A test named ${name} exists already; choose another name or replace it.`);
      const r = await rehearsalOf(sessionId);
      return { name, file: saveTest(dir, name, r), notes: r.notes };
    },
  };
}
