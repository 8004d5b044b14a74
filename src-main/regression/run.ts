import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { newMessageId } from '../../src-shared/ids';
import { startSession } from '../launch';
import { askedOfRun, gatherRun, rehearsalManifestText, type AskedTask, type RecordedCapsule } from '../recording';
import { staticFormation, type FormationTarget } from '../runtime/tools';
import { FORMATION_FILE, landsInside, readFormation } from '../workspace';
import { compareTask, type Mismatch } from './expect';
import { readTestFile, TESTS_FOLDER, type TestFile } from './test-file';

// `capsule test`: each saved test runs the workspace's current manifests with every capsule's
// model replaced by the test's rehearsal script, offline, in a temporary records folder. The entry
// capsule gets the tasks; the others are started as its sub-capsules when it delegates to them
// (so no port, key or running formation is needed). Then the run's delegations and answers are
// read back from its traces and compared with the test's expectations.

export interface TestOutcome {
  name: string;
  file: string;
  passed: boolean;
  mismatches: Mismatch[];
  /** A test that could not run (bad file, capsule missing, launch failure). */
  error?: string;
  durationMs: number;
  /** The failing run's records, kept for a look. */
  records?: string;
  /** What the run did, task by task (who was asked what, and the answers): the actual side of the diff. */
  actual?: AskedTask[];
}

interface Member {
  id: string;
  name: string;
  version: string;
  model: string;
  manifestPath: string;
}

function membersOf(workspace: string): Member[] {
  const file = join(workspace, FORMATION_FILE);
  if (!existsSync(file)) throw new Error(`${workspace} has no ${FORMATION_FILE}`);
  const formation = readFormation(readFileSync(file, 'utf8'));
  if (formation.issues.length) throw new Error(`${file}: ${formation.issues[0].message}`);
  return formation.capsules.map((c) => {
    const manifestPath = resolve(workspace, c.manifest);
    if (!landsInside(workspace, manifestPath))
      throw new Error(`${c.id}: ${c.manifest} leads outside the workspace folder`);
    const m = existsSync(manifestPath) ? (parse(readFileSync(manifestPath, 'utf8')) ?? {}) : {};
    return {
      id: c.id,
      name: String(m.name ?? c.id),
      version: String(m.version ?? ''),
      model: String(m.inference?.model ?? ''),
      manifestPath,
    };
  });
}

export function listTests(workspace: string): string[] {
  const dir = join(workspace, TESTS_FOLDER);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => join(dir, f));
}

/** The run was stopped by its caller (Esc in the Studio): its task is canceled and the run ends. */
export class TestRunCanceled extends Error {}

async function runTasks(
  test: TestFile,
  members: Member[],
  scratch: string,
  signal?: AbortSignal,
): Promise<{ mismatches: Mismatch[]; records: string; actual: AskedTask[] }> {
  const entry = members.find((m) => m.id === test.entry || m.name === test.entry);
  if (!entry) throw new Error(`entry capsule ${test.entry} is not in ${FORMATION_FILE}`);
  const notes: string[] = [];
  const paths = new Map<string, string>();
  for (const m of members) {
    const script = test.scripts[m.id] ?? test.scripts[m.name] ?? { delay_ms: 0, replies: [] };
    const capsule: RecordedCapsule = {
      capsule: m.name,
      version: m.version,
      model: m.model,
      driver: '',
      manifestPath: m.manifestPath,
      sessionIds: [],
      tasks: [],
    };
    const file = join(scratch, 'manifests', m.id, 'murmur.yaml');
    mkdirSync(join(scratch, 'manifests', m.id), { recursive: true });
    writeFileSync(file, rehearsalManifestText(capsule, script, notes));
    paths.set(m.id, file);
  }
  const targets: Record<string, FormationTarget> = {};
  for (const m of members)
    if (m !== entry) for (const n of [m.id, m.name]) targets[n] = { kind: 'manifest', manifestPath: paths.get(m.id)! };
  const home = join(scratch, 'home');
  const env = { ...process.env, CAPSULE_HOME: home };
  const session = await startSession({
    manifestPath: paths.get(entry.id)!,
    env,
    port: 0,
    formation: staticFormation(targets),
  });
  try {
    for (const t of test.tasks) {
      if (signal?.aborted) throw new TestRunCanceled(`${test.entry}: the run was canceled`);
      const { task, settled } = session.acceptMessage({
        message: { messageId: newMessageId(), role: 'ROLE_USER', parts: [{ text: t.text }] },
      });
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), test.timeout_ms)));
      const stopped = new Promise<'stopped'>((r) =>
        signal?.addEventListener('abort', (onAbort = () => r('stopped')), { once: true }),
      );
      const why = await Promise.race([settled, late, stopped]);
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      if (why === 'late') await session.cancelTask(task.id, 'capsule test: timeout').catch(() => undefined);
      if (why === 'stopped') {
        await session.cancelTask(task.id, 'capsule test: canceled by its caller').catch(() => undefined);
        throw new TestRunCanceled(`${test.entry}: the run was canceled`);
      }
    }
  } finally {
    await session.end('capsule test finished');
  }
  const run = await gatherRun(session.trace.path, join(home, 'records'));
  const asked = askedOfRun(run);
  const mismatches = test.tasks.flatMap((t, i) => compareTask(i, t, asked[i]));
  for (const c of run.capsules)
    for (const t of c.tasks)
      for (const d of t.divergences)
        mismatches.push({
          path: `replay: ${c.capsule} turn ${d.turn}`,
          expected: 'follows its recording',
          actual: d.reason,
        });
  return { mismatches, records: join(home, 'records'), actual: asked };
}

/** Runs one test file against the workspace's current manifests. */
/** `signal` stops the run: its task is canceled, its records removed, and TestRunCanceled thrown. */
export async function runTest(workspace: string, file: string, signal?: AbortSignal): Promise<TestOutcome> {
  const started = Date.now();
  const name = basename(file).replace(/\.ya?ml$/, '');
  const scratch = mkdtempSync(join(tmpdir(), 'capsule-test-'));
  try {
    const test = readTestFile(readFileSync(file, 'utf8'));
    const { mismatches, records, actual } = await runTasks(test, membersOf(workspace), scratch, signal);
    const passed = mismatches.length === 0;
    if (passed) rmSync(scratch, { recursive: true, force: true });
    return { name, file, passed, mismatches, actual, durationMs: Date.now() - started, ...(passed ? {} : { records }) };
  } catch (err) {
    rmSync(scratch, { recursive: true, force: true });
    if (err instanceof TestRunCanceled) throw err;
    return {
      name,
      file,
      passed: false,
      mismatches: [],
      error: (err as Error).message,
      durationMs: Date.now() - started,
    };
  }
}

export async function runWorkspaceTests(workspace: string, signal?: AbortSignal): Promise<TestOutcome[]> {
  const out: TestOutcome[] = [];
  for (const file of listTests(workspace)) out.push(await runTest(workspace, file, signal));
  return out;
}
