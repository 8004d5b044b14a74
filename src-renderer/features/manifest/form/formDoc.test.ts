import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { editManifestDocument } from '../../../../src-shared/manifest';
import { applyEdits, deleteAt, moveAt, pushAt, readData, removeAt, setAt, setValueAt, typed, valueAt } from './formDoc';

const text = `# a worker
name: writer # the name
version: "0.1.0"

inference:
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
  rehearsal:
    replies:
      # first: the greeting
      - when: hello
        turns:
          - text: "Hi"
      # second: anything else
      - turns:
          - text: Done
artifacts:
  - name: murmur/driver-anthropic
    gateway:
      api_key: \${ANTHROPIC_API_KEY}
      endpoint: "\${GATEWAY_URL}"

capabilities:
  network:
    allow: []
`;

describe('the form writes through the YAML document', () => {
  it('changes one value and keeps comments, quoting, blank lines and ${VAR} as written', () => {
    const out = applyEdits(text, setAt(['inference', 'model'], 'rehearsal-two'));
    expect(out).toBe(text.replace('model: rehearsal\n', 'model: rehearsal-two\n'));
    expect(out).toContain('api_key: ${ANTHROPIC_API_KEY}');
    expect(out).toContain('endpoint: "${GATEWAY_URL}"');
    expect(out).toContain('# first: the greeting');
  });

  it('writes a new ${VAR} value as text that reads back as written', () => {
    const out = applyEdits(text, setAt(['artifacts', 0, 'gateway', 'api_key'], '${OTHER_KEY}'));
    expect(out).toContain('api_key: ${OTHER_KEY}');
    expect(valueAt(readData(out), ['artifacts', 0, 'gateway', 'api_key'])).toBe('${OTHER_KEY}');
  });

  it('removes a key set to empty, and the maps it leaves empty', () => {
    const withBudget = applyEdits(text, setAt(['inference', 'budget', 'max_usd'], 0.5));
    expect(valueAt(readData(withBudget), ['inference', 'budget'])).toEqual({ max_usd: 0.5 });
    const out = applyEdits(withBudget, setAt(['inference', 'budget', 'max_usd'], ''));
    expect(out).not.toContain('budget');
    expect(out).toBe(text);
    expect(applyEdits(text, deleteAt(['no', 'such']))).toBe(text);
  });

  it('grows `allow: []` into a block list and removes entries by index', () => {
    const one = applyEdits(text, pushAt(['capabilities', 'network', 'allow'], 'api.example.com'));
    expect(one).toMatch(/allow:\n {6}- api\.example\.com\n/);
    const two = applyEdits(one, pushAt(['capabilities', 'network', 'allow'], 'localhost:4000'));
    expect(valueAt(readData(two), ['capabilities', 'network', 'allow'])).toEqual(['api.example.com', 'localhost:4000']);
    expect(
      valueAt(readData(applyEdits(two, removeAt(['capabilities', 'network', 'allow'], 0))), [
        'capabilities',
        'network',
        'allow',
      ]),
    ).toEqual(['localhost:4000']);
    // An entry cleared to be retyped keeps its place (the checker names the empty entry).
    expect(
      valueAt(readData(applyEdits(two, setValueAt(['capabilities', 'network', 'allow', 0], ''))), [
        'capabilities',
        'network',
        'allow',
      ]),
    ).toEqual(['', 'localhost:4000']);
  });

  it('moves a reply with its comment', () => {
    const out = applyEdits(text, moveAt(['inference', 'rehearsal', 'replies'], 1, 0));
    expect(out.indexOf('# second: anything else')).toBeLessThan(out.indexOf('# first: the greeting'));
    expect(valueAt(readData(out), ['inference', 'rehearsal', 'replies', 1, 'when'])).toBe('hello');
  });

  it('refuses an edit the document cannot take, with a message instead of a broken file', () => {
    const scalarList = 'name: a\nversion: "1"\ncapabilities:\n  network:\n    allow: localhost\n';
    expect(() => applyEdits(scalarList, pushAt(['capabilities', 'network', 'allow'], 'x'))).toThrow(/not a list/);
    expect(() => applyEdits('name: [oops', setAt(['name'], 'b'))).toThrow(/syntax error/);
  });

  it('the kept document of the draft gives exactly what a fresh parse would, also after a failed edit', () => {
    const steps = [
      setAt(['inference', 'model'], 'm1'),
      pushAt(['capabilities', 'network', 'allow'], 'a.example.com'),
      moveAt(['inference', 'rehearsal', 'replies'], 1, 0),
      setAt(['inference', 'budget', 'max_usd'], 1.5),
      removeAt(['inference', 'rehearsal', 'replies'], 0),
      setAt(['inference', 'budget', 'max_usd'], ''),
    ];
    let kept = text;
    let fresh = text;
    for (const step of steps) {
      kept = applyEdits(kept, step);
      fresh = editManifestDocument(fresh, step);
      expect(kept).toBe(fresh);
      expect(readData(kept)).toEqual(parse(fresh));
    }
    // A half-applied edit that throws leaves no trace in the next one.
    expect(() => applyEdits(kept, setAt(['inference', 'model'], 'half'), pushAt(['name'], 'x'))).toThrow(/not a list/);
    expect(applyEdits(kept, setAt(['version'], '2'))).toBe(editManifestDocument(fresh, setAt(['version'], '2')));
    expect(readData(kept)).toEqual(parse(fresh));
  });

  it('types what is typed: numbers only when they read back as typed', () => {
    expect(typed('4', 'int')).toBe(4);
    expect(typed('4.5', 'int')).toBe('4.5');
    expect(typed('0.5', 'number')).toBe(0.5);
    expect(typed('0.', 'number')).toBe('0.');
    expect(typed('1.50', 'number')).toBe('1.50');
    expect(typed('many', 'int')).toBe('many');
    expect(typed(' spaced ', 'text')).toBe(' spaced ');
  });
});
