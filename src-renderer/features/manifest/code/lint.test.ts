import { Text } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { checkManifest } from '../manifestCheck';
import { toDiagnostics } from './lint';

describe('toDiagnostics', () => {
  it("underlines the token at the checker's line and column", () => {
    const src =
      'name: writer\nversion: 0.1.0\ninference:\n  driver:\n    artifact: capsule/driver-rehearsl\nlifecycle:\n  queue_depth: lots\n';
    const doc = Text.of(src.split('\n'));
    const d = toDiagnostics(doc, checkManifest(src));
    expect(d.map((x) => src.slice(x.from, x.to))).toEqual(['capsule/driver-rehearsl', 'lots']);
    expect(d[0]).toMatchObject({
      severity: 'error',
      source: 'inference.driver.artifact',
      message: expect.stringContaining('did you mean "capsule/driver-rehearsal"'),
    });
  });

  it('underlines a misspelt key without its colon, and keeps a position past the text on its line', () => {
    const src = 'name: w\nversoin: x\n';
    const doc = Text.of(src.split('\n'));
    expect(
      toDiagnostics(doc, [{ line: 2, column: 1, path: 'versoin', message: 'unknown key' }]).map((x) =>
        src.slice(x.from, x.to),
      ),
    ).toEqual(['versoin']);
    const far = toDiagnostics(doc, [{ line: 99, column: 99, path: '', message: 'x' }])[0];
    expect(far.from).toBe(far.to);
    expect(far.from).toBeLessThanOrEqual(doc.length);
  });
});

describe('toDiagnostics on a reference', () => {
  it('underlines just the ${VAR} the core points at inside a quoted value', () => {
    const src = 'api_key: "${KEY}"  # note\n';
    const doc = Text.of(src.split('\n'));
    const [d] = toDiagnostics(doc, [
      { line: 1, column: 11, path: 'api_key', message: 'environment variable KEY is not set' },
    ]);
    expect(src.slice(d.from, d.to)).toBe('${KEY}');
  });
});
