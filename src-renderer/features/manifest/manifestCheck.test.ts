import { describe, expect, it } from 'vitest';
import { checkManifest } from './manifestCheck';

const good = `name: writer
version: 0.1.0
inference:
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
`;

describe('checkManifest', () => {
  it('accepts a valid manifest', () => {
    expect(checkManifest(good)).toEqual([]);
  });

  it('puts a YAML syntax error at its line', () => {
    const issues = checkManifest(good.replace('  model: rehearsal', '  model: [rehearsal'));
    expect(issues.length).toBeGreaterThan(0);
    expect(issues[0].message).toMatch(/^YAML syntax error: /);
    expect(issues[0].line).toBeGreaterThanOrEqual(4);
  });

  it('names a wrong field and its line', () => {
    const issues = checkManifest(good + 'lifecycle:\n  queue_depth: lots\n');
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path: 'lifecycle.queue_depth', line: 8 });
  });

  it('names an unknown key at the key itself, with the core\'s "did you mean" hint', () => {
    const issues = checkManifest(good.replace('version: 0.1.0', 'version: 0.1.0\nversoin: x'));
    expect(issues).toEqual([
      {
        line: 3,
        column: 1,
        path: 'versoin',
        message: 'unknown key "versoin"',
        hint: expect.stringMatching(/^did you mean "version"\? allowed here: name, version, /),
      },
    ]);
    const nested = checkManifest(good.replace('  model: rehearsal', '  modle: rehearsal'));
    expect(nested[0]).toMatchObject({
      line: 4,
      path: 'inference.modle',
      hint: expect.stringMatching(/^did you mean "model"\?/),
    });
  });

  it('points an unclosed quote at the line it opened on, as the core does', () => {
    const issues = checkManifest(good.replace('name: writer', 'name: "writer'));
    expect(issues[0]).toMatchObject({
      line: 1,
      message: 'YAML syntax error: a " quote is not closed (the quote opened here)',
    });
  });

  it('leaves ${VAR} values to the core', () => {
    expect(checkManifest(good + 'network:\n  internal_port: ${PORT}\n')).toEqual([]);
  });
});
