import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { makeRehearsal } from '../recording';
import { recordFormation, type RecordedFormation } from '../recording/recorded.fixture';
import {
  formatDiff,
  junitReport,
  readTestFile,
  runWorkspaceTests,
  testFileText,
  testFromRehearsal,
  unmet,
} from './index';

// A recorded run saved as a test: it passes against the workspace as recorded, offline, and fails
// with a readable diff when a capsule's behaviour changes; JUnit XML and the CLI's exit status.

let rec: RecordedFormation | undefined;
afterEach(async () => {
  await rec?.dispose();
  rec = undefined;
});

/** The recorded formation's folder as a workspace with the recorded run saved as tests/recorded.yaml. */
async function workspaceWithTest() {
  rec = await recordFormation();
  const ws = rec.s.dir;
  writeFileSync(
    join(ws, 'formation.yaml'),
    stringify({
      capsules: ['orchestrator', 'worker-a', 'worker-b'].map((id) => ({ id, manifest: `${id}/murmur.yaml` })),
      remotes: [],
    }),
  );
  const test = testFromRehearsal(await makeRehearsal(rec.orch.trace.path, { recordsRoot: rec.recordsRoot, speed: 0 }));
  mkdirSync(join(ws, 'tests'), { recursive: true });
  const file = join(ws, 'tests', 'recorded.yaml');
  writeFileSync(file, testFileText(test));
  return { ws, file, test: readTestFile(readFileSync(file, 'utf8')) };
}

const BIN = resolve(__dirname, '../../bin/capsule.js');
function capsule(
  env: Record<string, string | undefined>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { env, timeout: 60_000 }, (err, stdout, stderr) =>
      done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('capsule test', () => {
  it('saves who was asked what and the answers, and passes offline against the workspace as recorded', async () => {
    const { ws, test } = await workspaceWithTest();
    expect(test.entry).toBe('orchestrator');
    expect(test.tasks).toEqual([
      {
        text: 'Summarise the report and list the open questions.',
        expect: {
          answer: 'Summary and questions are in. (***)',
          status: 'ok',
          delegations: [
            {
              from: 'orchestrator',
              to: 'worker-a',
              text: 'Summarise the report.',
              answer: 'worker-a: the report says revenue grew 12%',
            },
            {
              from: 'orchestrator',
              to: 'worker-b',
              text: 'List the open questions.',
              answer: 'worker-b: two open questions',
            },
          ],
        },
      },
    ]);
    const [outcome] = await runWorkspaceTests(ws);
    expect(outcome.mismatches).toEqual([]);
    expect(outcome).toMatchObject({ name: 'recorded', passed: true });
    expect(rec!.anthropic.requests).toHaveLength(2); // only the recording's: the test reached no provider
    expect(junitReport([outcome])).toContain('<testcase classname="capsule" name="recorded"');
  });

  it('fails with a diff when a capsule now answers differently, and the JUnit report carries it', async () => {
    const { ws, file } = await workspaceWithTest();
    const raw = parse(readFileSync(file, 'utf8'));
    raw.scripts['worker-b'].replies[0].turns[0].text = 'worker-b: no questions at all';
    writeFileSync(file, stringify(raw));
    const [outcome] = await runWorkspaceTests(ws);
    expect(outcome.passed).toBe(false);
    expect(outcome.mismatches).toEqual([
      {
        path: 'task 1: delegations[1].answer',
        expected: '"worker-b: two open questions"',
        actual: '"worker-b: no questions at all"',
      },
      {
        path: 'replay: orchestrator turn 2',
        expected: 'follows its recording',
        actual: expect.stringContaining('tool result 2 differs from the recording'),
      },
    ]);
    expect(formatDiff(outcome.mismatches)).toContain(
      'task 1: delegations[1].answer\n  - "worker-b: two open questions"\n  + "worker-b: no questions at all"',
    );
    const xml = junitReport([outcome]);
    expect(xml).toMatch(/<failure message="2 difference\(s\)">task 1: delegations\[1\]\.answer/);
    expect(xml).toContain('tests="1" failures="1" errors="0"');
  });

  it('fails when the current manifests no longer let the entry reach a capsule', async () => {
    const { ws } = await workspaceWithTest();
    writeFileSync(
      join(ws, 'formation.yaml'),
      stringify({
        capsules: [
          { id: 'orchestrator', manifest: 'orchestrator/murmur.yaml' },
          { id: 'worker-a', manifest: 'worker-a/murmur.yaml' },
        ],
        remotes: [],
      }),
    );
    const [outcome] = await runWorkspaceTests(ws);
    expect(outcome.passed).toBe(false);
    expect(outcome.mismatches.find((m) => m.path === 'task 1: delegations[1].answer')?.actual).toContain(
      'unknown capsule \\"worker-b\\"',
    );
  });

  it('matches a regex in linear time: a pattern that backtracks for ever in JavaScript answers at once', () => {
    const started = Date.now();
    // JavaScript's engine takes minutes on this (2^n steps); the test's timeout could not stop it.
    expect(unmet({ regex: '/^(a+)+$/' }, `${'a'.repeat(28)}!`)).toBe('');
    expect(unmet({ regex: '/^(a+)+$/' }, 'a'.repeat(35))).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(unmet({ regex: '/^(a)\\1$/' }, 'aa')).toMatch(/does not compile.*no backreferences/);
    expect(unmet({ regex: '/x/q' }, 'x')).toMatch(/does not compile: unknown flag q/);
    expect(unmet({ regex: '/^a.b$/s' }, 'a\nb')).toBeUndefined();
    expect(unmet({ regex: '/^b$/m' }, 'a\nb')).toBeUndefined();
    // A JSON Schema's pattern in a test file too.
    const slow = Date.now();
    expect(unmet({ schema: { type: 'string', pattern: '^(a+)+$' } }, JSON.stringify(`${'a'.repeat(28)}!`))).toMatch(
      /pattern/,
    );
    expect(Date.now() - slow).toBeLessThan(1000);
  });

  it('matches exact, contains, regex and JSON Schema expectations', () => {
    expect(unmet('a b', 'a b')).toBeUndefined();
    expect(unmet({ exact: 'a' }, 'ab')).toBe('');
    expect(unmet({ contains: 'revenue' }, 'the revenue grew')).toBeUndefined();
    expect(unmet({ contains: 'loss' }, 'the revenue grew')).toBe('');
    expect(unmet({ regex: '/^GREW \\d+%$/i' }, 'grew 12%')).toBeUndefined();
    expect(unmet({ regex: '^\\d+$' }, 'x1')).toBe('');
    const schema = { schema: { type: 'object', required: ['total'], properties: { total: { type: 'number' } } } };
    expect(unmet(schema, { total: 3 })).toBeUndefined();
    expect(unmet(schema, '{"total": 3}')).toBeUndefined();
    expect(unmet(schema, { total: 'three' })).toBe(' (/total must be number)');
    expect(unmet(schema, 'plain words')).toBe(' (not JSON)');
  });

  it('runs from the CLI: rehearse --save-test, then test with an exit status for CI and a JUnit file', async () => {
    rec = await recordFormation();
    const ws = rec.s.dir;
    writeFileSync(
      join(ws, 'formation.yaml'),
      stringify({
        capsules: ['orchestrator', 'worker-a', 'worker-b'].map((id) => ({ id, manifest: `${id}/murmur.yaml` })),
        remotes: [],
      }),
    );
    const env = { ...process.env, CAPSULE_HOME: rec.s.env.CAPSULE_HOME };
    const saved = await capsule(
      env,
      'rehearse',
      '--from',
      rec.orch.id.slice(-8),
      '--no-delay',
      '--save-test',
      'flow',
      '--workspace',
      ws,
    );
    expect(saved.stderr).toBe('');
    expect(saved.stdout).toBe(`test: ${join(ws, 'tests', 'flow.yaml')}\n`);
    const made = await capsule(env, 'rehearse', '--from', rec.orch.id, '--speed', '4', '--out', join(ws, 'replay'));
    expect(made.stdout.split('\n').slice(0, 4)).toEqual([
      `rehearsal: ${join(ws, 'replay')}`,
      ...['orchestrator', 'worker-a', 'worker-b'].map((n) => `capsule: ${n} ${join(ws, 'replay', n, 'murmur.yaml')}`),
    ]);
    expect(
      parse(readFileSync(join(ws, 'replay', 'formation.yaml'), 'utf8')).capsules.map((c: { id: string }) => c.id),
    ).toEqual(['orchestrator', 'worker-a', 'worker-b']);
    const junit = join(ws, 'report.xml');
    const ok = await capsule(env, 'test', '--workspace', ws, '--junit', junit);
    expect(ok.stdout).toMatch(/^PASS {2}flow {2}.*\n1 passed, 0 failed\n$/);
    expect(ok.code).toBe(0);
    expect(readFileSync(junit, 'utf8')).toContain('tests="1" failures="0"');
    const file = join(ws, 'tests', 'flow.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(
        'answer: Summary and questions are in. (***)',
        'answer: { contains: "nothing" }',
      ),
    );
    const bad = await capsule(env, 'test', '-w', ws);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('FAIL  flow');
    expect(bad.stdout).toContain(
      'task 1: answer\n    - contains "nothing"\n    + "Summary and questions are in. (***)"',
    );
  }, 120_000);
});
