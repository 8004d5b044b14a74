import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  formatIssues,
  loadManifestFile,
  ManifestError,
  parseManifest,
  type ManifestIssue,
  type ManifestLoadResult,
} from './index';

const fixture = (name: string) => join(__dirname, 'fixtures', `${name}.yaml`);
const ENV = {
  ANTHROPIC_API_KEY: 'sk-ant-secret-1',
  OPENAI_API_KEY: 'sk-openai-secret-2',
  DEEPSEEK_API_KEY: 'sk-deepseek-secret-3',
};

function issuesOf(r: ManifestLoadResult): ManifestIssue[] {
  if (r.ok) throw new Error('expected the manifest to be refused');
  return r.issues;
}

function only(issues: ManifestIssue[], path: string): ManifestIssue {
  const found = issues.filter((i) => i.path === path);
  expect(found, `issues at ${path}: ${formatIssues(issues)}`).toHaveLength(1);
  return found[0];
}

describe('murmur manifests (a worker and an orchestrator per provider, as murmur writes them)', () => {
  const providers = [
    ['anthropic', 'ANTHROPIC_API_KEY', 'claude-sonnet-5'],
    ['openai', 'OPENAI_API_KEY', 'o3-mini-high'],
    ['deepseek', 'DEEPSEEK_API_KEY', 'deepseek-r1'],
  ] as const;

  for (const [provider, variable, model] of providers) {
    it(`loads the ${provider} worker unchanged`, () => {
      const r = loadManifestFile(fixture(`murmur-worker-${provider}`), ENV);
      if (!r.ok) throw new Error(formatIssues(r.issues));
      expect(r.manifest.name).toBe('my-worker');
      expect(r.manifest.version).toBe('0.1.0');
      expect(r.manifest.network?.internal_port).toBe(52222);
      expect(r.manifest.inference).toMatchObject({
        transport: 'http',
        model,
        driver: { artifact: `murmur/driver-${provider}` },
      });
      expect(r.manifest.lifecycle).toMatchObject({ task_acceptance: 'queue', after_task: 'sleep', queue_depth: 2 });
      expect(r.manifest.exports?.peer_tasks?.accept).toBe(true);
      expect(r.manifest.artifacts[0].gateway?.api_key).toBe(ENV[variable]);
      expect(r.manifest.artifacts[0].runtime).toBe('driver');
      expect(r.secrets).toEqual([ENV[variable]]);
      expect(r.source).toContain(`\${${variable}}`);
      expect(r.source).not.toContain(ENV[variable]);
    });

    it(`loads the ${provider} orchestrator unchanged`, () => {
      const r = loadManifestFile(fixture(`murmur-orchestrator-${provider}`), ENV);
      if (!r.ok) throw new Error(formatIssues(r.issues));
      expect(r.manifest.name).toBe('my-orchestrator');
      expect(r.manifest.capabilities?.network?.allow).toEqual(['localhost:52222']);
    });
  }

  it('refuses a murmur worker whose key is not exported, naming the line and the fix', () => {
    const file = fixture('murmur-worker-anthropic');
    const issues = issuesOf(loadManifestFile(file, {}));
    expect(issues).toEqual([
      {
        file,
        line: 10,
        column: 16,
        path: 'artifacts[0].gateway.api_key',
        message: 'environment variable ANTHROPIC_API_KEY is not set',
        hint: 'export ANTHROPIC_API_KEY=… before launching',
      },
    ]);
  });
});

describe('${VAR} interpolation', () => {
  const base = (extra: string) =>
    `name: w\nversion: "1"\ninference:\n  driver:\n    artifact: capsule/driver-rehearsal\n${extra}`;

  it('interpolates scalar values only, never keys or comments', () => {
    const src = base('  # uses ${NOT_SET_IN_COMMENT}\n  system_prompt: "hi ${WHO}, $${LITERAL}"\n');
    const r = parseManifest(src, 'm.yaml', { WHO: 'there' });
    if (!r.ok) throw new Error(formatIssues(r.issues));
    expect(r.manifest.inference.system_prompt).toBe('hi there, ${LITERAL}');
    const key = parseManifest(base('  ${KEY}: 1\n'), 'm.yaml', { KEY: 'model' });
    expect(only(issuesOf(key), 'inference.${KEY}').message).toBe('unknown key "${KEY}"');
  });

  it('types an unquoted interpolated number as a number, a quoted one as text', () => {
    const ok = parseManifest(base('network:\n  internal_port: ${PORT}\n'), 'm.yaml', { PORT: '52222' });
    expect(ok.ok && ok.manifest.network?.internal_port).toBe(52222);
    const quoted = issuesOf(parseManifest(base('network:\n  internal_port: "${PORT}"\n'), 'm.yaml', { PORT: '52222' }));
    expect(only(quoted, 'network.internal_port')).toMatchObject({
      line: 7,
      column: 18,
      message: expect.stringContaining('expected a number, got text'),
    });
  });

  it('keeps an all-digit secret as text where text is expected', () => {
    const r = parseManifest(base('artifacts:\n  - name: x\n    gateway:\n      api_key: ${KEY}\n'), 'm.yaml', {
      KEY: '0012345',
    });
    if (!r.ok) throw new Error(formatIssues(r.issues));
    expect(r.manifest.artifacts[0].gateway?.api_key).toBe('0012345');
    expect(r.secrets).toEqual(['0012345']);
  });

  it('reports every missing variable at its own line', () => {
    const src = base('  system_prompt: ${A}\nartifacts:\n  - name: x\n    gateway:\n      api_key: "key-${B}"\n');
    const issues = issuesOf(parseManifest(src, 'm.yaml', {}));
    expect(issues.map((i) => [i.line, i.column, i.path, i.message, i.hint])).toEqual([
      [6, 18, 'inference.system_prompt', 'environment variable A is not set', 'export A=… before launching'],
      [10, 21, 'artifacts[0].gateway.api_key', 'environment variable B is not set', 'export B=… before launching'],
    ]);
  });

  it('never puts a secret value in an issue', () => {
    const secret = 'hunter2-very-secret';
    const src = base(
      'network:\n  internal_port: ${PORT}\nlifecycle:\n  task_acceptance: ${MODE}\n  idle_timeout: ${MODE}\n',
    );
    const r = parseManifest(src.replace('capsule/driver-rehearsal', '${DRIVER}'), 'm.yaml', {
      PORT: secret,
      MODE: secret,
      DRIVER: secret,
    });
    const issues = issuesOf(r);
    expect(issues.map((i) => i.path)).toEqual([
      'inference.driver.artifact',
      'network.internal_port',
      'lifecycle.task_acceptance',
      'lifecycle.idle_timeout',
    ]);
    const text = formatIssues(issues);
    expect(text).not.toContain(secret);
    expect(text).not.toContain('hunter2');
    expect(only(issues, 'network.internal_port').message).toBe(
      'expected a number, got text (the value comes from the environment and is not shown)',
    );
    expect(new ManifestError(issues).message).not.toContain(secret);
  });

  it('refuses a malformed reference', () => {
    const issue = only(
      issuesOf(parseManifest(base('  system_prompt: "${1BAD}"\n'), 'm.yaml', {})),
      'inference.system_prompt',
    );
    expect(issue).toMatchObject({ line: 6, column: 19, message: 'not a variable reference: ${1BAD}' });
  });
});

describe('located issues', () => {
  it('reports YAML syntax errors with line and column', () => {
    const issues = issuesOf(parseManifest('name: a\nversion: "1"\ninference:\n\tdriver: x\n', 'bad.yaml', {}));
    expect(issues).toEqual([
      {
        file: 'bad.yaml',
        line: 4,
        column: 1,
        path: '',
        message: 'YAML syntax error: a tab is used to indent; YAML indents with spaces only',
      },
    ]);
    expect(issuesOf(parseManifest('name: a\nversion: b: c\n', 'bad.yaml', {}))[0]).toMatchObject({
      line: 2,
      column: 10,
    });
    const unclosed = issuesOf(parseManifest('name: a\nversion: "1\ninference:\n  model: x\n', 'bad.yaml', {}));
    expect(unclosed[0]).toMatchObject({
      line: 2,
      column: 10,
      message: 'YAML syntax error: a " quote is not closed (the quote opened here)',
    });
    const dup = issuesOf(parseManifest('name: a\nname: b\n', 'dup.yaml', {}));
    expect(dup[0]).toMatchObject({ line: 2, column: 1 });
    expect(dup[0].message).toContain('appears twice');
  });

  it('reports every schema issue at once, in file order, with hints', () => {
    const src = [
      'name: ok', //                                  1
      'version: 1', //                                2
      'lifecycle:', //                                3
      '  task_acceptance: sometimes', //              4
      '  queu_depth: 3', //                           5
      'inference:', //                                6
      '  modle: x', //                                7
      '  driver:', //                                 8
      '    artifact: murmur/driver-antropic', //     9
      'netwrk: {}', //                               10
    ].join('\n');
    const issues = issuesOf(parseManifest(src, 'w.yaml', {}));
    expect(issues.map((i) => `${i.line}:${i.column} ${i.path}`)).toEqual([
      '2:10 version',
      '4:20 lifecycle.task_acceptance',
      '5:3 lifecycle.queu_depth',
      '7:3 inference.modle',
      '9:15 inference.driver.artifact',
      '10:1 netwrk',
    ]);
    expect(only(issues, 'version')).toMatchObject({
      message: 'expected text, got a number',
      hint: expect.stringContaining('quotes'),
    });
    expect(only(issues, 'lifecycle.task_acceptance')).toMatchObject({
      message: 'not an allowed value',
      hint: 'allowed values: queue, single, none',
    });
    expect(only(issues, 'lifecycle.queu_depth')).toMatchObject({
      message: 'unknown key "queu_depth"',
      hint: expect.stringMatching(
        /^did you mean "queue_depth"\? allowed here: task_acceptance, after_task, queue_depth, idle_timeout$/,
      ),
    });
    expect(only(issues, 'inference.modle').hint).toMatch(/^did you mean "model"\?/);
    expect(only(issues, 'netwrk').hint).toMatch(/^did you mean "network"\?/);
    expect(only(issues, 'inference.driver.artifact')).toMatchObject({
      message: 'unknown driver artifact "murmur/driver-antropic"',
      hint: expect.stringContaining(
        'did you mean "murmur/driver-anthropic"? built-in drivers: capsule/driver-rehearsal, murmur/driver-anthropic',
      ),
    });
  });

  it('lists allowed keys when nothing is close, and points at the parent of a missing field', () => {
    const issues = issuesOf(
      parseManifest('name: a\nversion: "1"\ninference:\n  transport: http\nzzzzzzzz: 1\n', 'm.yaml', {}),
    );
    expect(only(issues, 'zzzzzzzz').hint).toMatch(/^allowed here: name, version, description/);
    expect(only(issues, 'inference.driver')).toMatchObject({
      line: 4,
      column: 3,
      message: 'required field is missing (expected a map of fields)',
      hint: 'add "driver:" under "inference"',
    });
    expect(only(issuesOf(parseManifest('name: a\nversion: "1"\n', 'm.yaml', {})), 'inference')).toMatchObject({
      line: 1,
      hint: 'add "inference:" at the top level',
    });
  });

  it('locates issues inside lists and flags allow entries that are no pattern', () => {
    const src =
      'name: a\nversion: "1"\ninference:\n  driver: {artifact: capsule/driver-rehearsal}\n  rehearsal:\n    replies:\n      - turns:\n          - stop: later\ncapabilities:\n  network:\n    allow: [localhost:52222, "localhost:522220"]\n';
    const issues = issuesOf(parseManifest(src, 'm.yaml', {}));
    expect(only(issues, 'inference.rehearsal.replies[0].turns[0].stop')).toMatchObject({
      line: 8,
      column: 19,
      hint: 'allowed values: end_turn, max_tokens, tool_use',
    });
    expect(only(issues, 'capabilities.network.allow[1]')).toMatchObject({
      line: 11,
      column: 30,
      message: 'not an allow pattern: "localhost:522220"',
    });
  });

  it('reports a contract that is not JSON Schema, and a rehearsal part with two contents, at their lines', () => {
    const src =
      'name: a\nversion: "1"\ninference:\n  driver: {artifact: capsule/driver-rehearsal}\n  rehearsal:\n    replies:\n      - turns:\n          - artifacts:\n              - parts: [{text: a, url: "https://x.test/f"}]\nresponds:\n  type: tabular\naccepts: {type: object}\nexports:\n  methods: [tasks/send, tasks/explode]\n';
    const issues = issuesOf(parseManifest(src, 'm.yaml', {}));
    expect(only(issues, 'responds')).toMatchObject({
      line: 11,
      message: expect.stringMatching(/^not a valid JSON Schema: .*type/),
    });
    expect(issues.filter((i) => i.path === 'accepts')).toEqual([]);
    expect(only(issues, 'inference.rehearsal.replies[0].turns[0].artifacts[0].parts[0]')).toMatchObject({
      line: 9,
      message: expect.stringContaining('exactly one of text, data, bytes or url'),
    });
    expect(only(issues, 'exports.methods[1]')).toMatchObject({
      line: 14,
      message: expect.stringContaining('not an A2A method name'),
    });
  });

  it('explains union mismatches by listing the accepted forms', () => {
    const src =
      'name: a\nversion: "1"\ninference:\n  driver: {artifact: capsule/driver-process}\n  harness:\n    command: x\n    interrupt: 3\n';
    expect(only(issuesOf(parseManifest(src, 'm.yaml', {})), 'inference.harness.interrupt')).toMatchObject({
      line: 7,
      hint: 'expected one of: sigint; none; a map of fields',
    });
  });

  it('refuses empty files and non-map documents', () => {
    expect(issuesOf(parseManifest('', 'e.yaml', {}))[0].message).toBe('the manifest is empty');
    expect(issuesOf(parseManifest('- a\n', 'e.yaml', {}))[0]).toMatchObject({
      line: 1,
      message: expect.stringContaining('map of fields'),
    });
  });

  it('formats issues as file:line:column: path: message (hint)', () => {
    const issues = issuesOf(
      parseManifest('name: a\nversion: "1"\ninference:\n  driver:\n    artifact: nope\n', 'w/murmur.yaml', {}),
    );
    expect(formatIssues(issues)).toMatch(
      /^w\/murmur\.yaml:5:15: inference\.driver\.artifact: unknown driver artifact "nope" \(hint: built-in drivers: /,
    );
  });
});

describe('loadManifestFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'capsule-manifest-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says plainly when the file is missing or a folder', () => {
    const missing = join(dir, 'nope.yaml');
    expect(issuesOf(loadManifestFile(missing, {}))).toEqual([
      { file: missing, path: '', message: 'manifest file not found' },
    ]);
    expect(issuesOf(loadManifestFile(dir, {}))[0].message).toBe('expected a manifest file, found a folder');
  });

  it('returns the raw source, so edits keep ${VAR} as written', () => {
    const file = join(dir, 'w.yaml');
    writeFileSync(file, readFileSync(fixture('murmur-worker-openai'), 'utf8'));
    const r = loadManifestFile(file, ENV);
    expect(r.ok && r.source).toBe(readFileSync(file, 'utf8'));
  });
});
