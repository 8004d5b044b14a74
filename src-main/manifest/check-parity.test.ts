import { describe, expect, it } from 'vitest';
import { parseManifest } from './load';
import { checkManifest as rendererCheck } from '../../src-renderer/features/manifest/manifestCheck';

// The core's loader and the Studio's editor run one checker: for a text without ${VAR} references
// (which only the core can resolve), both give the same issues, worded and placed the same way.

const good = `name: writer
version: 0.1.0
inference:
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
`;

const bad: Record<string, string> = {
  'artifact name not text': good + 'artifacts:\n  - name: 5\n',
  'artifact runtime enum': good + 'artifacts:\n  - name: tools\n    runtime: sideways\n',
  'misspelt top key': good.replace('version: 0.1.0', 'version: 0.1.0\nversoin: x'),
  'misspelt nested key': good.replace('  model: rehearsal', '  modle: rehearsal'),
  'unquoted version': good.replace('version: 0.1.0', 'version: 1'),
  'missing driver': 'name: writer\nversion: "1"\ninference:\n  model: rehearsal\n',
  'temperature too high': good + '  temperature: 7\n',
  'unknown driver': good.replace('capsule/driver-rehearsal', 'capsule/driver-rehearsl'),
  'bad allow pattern': good + 'capabilities:\n  network:\n    allow: ["http://"]\n',
  'duration form': good + 'lifecycle:\n  idle_timeout: soon\n',
  'unclosed quote': good.replace('name: writer', 'name: "writer'),
  'syntax error': good.replace('  model: rehearsal', '  model: [rehearsal'),
  'not a map': '- a\n- b\n',
  empty: '',
  'several at once':
    'name: "bad name!"\nversion: 2\ninference:\n  driver:\n    artifact: 3\n  max_turns: -1\nlifecycle:\n  task_acceptance: maybe\n',
};

describe('one manifest checker', () => {
  for (const [name, text] of Object.entries(bad)) {
    it(`gives the same issues through the core and the editor: ${name}`, () => {
      const core = parseManifest(text, 'murmur.yaml', {});
      expect(core.ok).toBe(false);
      const coreIssues = core.ok
        ? []
        : core.issues.map(({ file, ...rest }) => (expect(file).toBe('murmur.yaml'), rest));
      expect(coreIssues.length).toBeGreaterThan(0);
      expect(rendererCheck(text)).toEqual(coreIssues);
      for (const i of coreIssues) {
        expect(i.line, `${i.path} ${i.message}`).toBeGreaterThanOrEqual(1);
        expect(i.column, `${i.path} ${i.message}`).toBeGreaterThanOrEqual(1);
      }
    });
  }

  it('accepts a valid manifest on both sides', () => {
    expect(parseManifest(good, 'murmur.yaml', {}).ok).toBe(true);
    expect(rendererCheck(good)).toEqual([]);
  });

  it('writes list paths as artifacts[0] and types as a person reads them', () => {
    expect(rendererCheck(bad['artifact name not text'])).toEqual([
      {
        line: 8,
        column: 11,
        path: 'artifacts[0].name',
        message: 'expected text, got a number',
        hint: 'put the value in quotes to make it text, e.g. "0.1.0"',
      },
    ]);
    expect(rendererCheck(bad['artifact runtime enum'])).toEqual([
      {
        line: 9,
        column: 14,
        path: 'artifacts[0].runtime',
        message: 'not an allowed value',
        hint: 'allowed values: driver, tool, capsule',
      },
    ]);
  });

  it('puts each issue at the line and column of its value or key', () => {
    expect(rendererCheck(bad['misspelt nested key'])[0]).toMatchObject({
      line: 4,
      column: 3,
      path: 'inference.modle',
      message: 'unknown key "modle"',
    });
    expect(rendererCheck(bad['temperature too high'])).toEqual([
      { line: 7, column: 16, path: 'inference.temperature', message: 'must be at most 2' },
    ]);
    expect(rendererCheck(bad['missing driver'])).toEqual([
      expect.objectContaining({
        line: 4,
        column: 3,
        path: 'inference.driver',
        message: 'required field is missing (expected a map of fields)',
      }),
    ]);
    expect(rendererCheck(bad['bad allow pattern'])).toEqual([
      expect.objectContaining({ line: 9, column: 13, path: 'capabilities.network.allow[0]' }),
    ]);
    expect(rendererCheck(bad['duration form'])).toEqual([
      expect.objectContaining({
        line: 8,
        column: 17,
        path: 'lifecycle.idle_timeout',
        message: 'not in the expected form',
        hint: 'a duration such as 500ms, 30s, 10m or 1h',
      }),
    ]);
    expect(rendererCheck(bad['unclosed quote'])[0]).toMatchObject({ line: 1, column: 7 });
    expect(rendererCheck(bad.empty)).toEqual([{ line: 1, column: 1, path: '', message: 'the manifest is empty' }]);
  });

  it('sorts several issues by position', () => {
    const issues = rendererCheck(bad['several at once']);
    expect(issues.map((i) => [i.line, i.path])).toEqual([
      [1, 'name'],
      [2, 'version'],
      [5, 'inference.driver.artifact'],
      [6, 'inference.max_turns'],
      [8, 'lifecycle.task_acceptance'],
    ]);
  });

  it('leaves ${VAR} values to the core, which resolves them', () => {
    const text = good + 'network:\n  internal_port: ${PORT}\n';
    expect(rendererCheck(text)).toEqual([]);
    expect(parseManifest(text, 'm.yaml', { PORT: '8080' }).ok).toBe(true);
    const core = parseManifest(text, 'm.yaml', {});
    expect(core.ok ? [] : core.issues).toEqual([
      expect.objectContaining({ line: 8, column: 18, message: 'environment variable PORT is not set' }),
    ]);
  });
});
