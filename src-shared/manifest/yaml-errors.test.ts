import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { formatYamlError, yamlErrorMessage } from './yaml-errors';

// The first error the yaml library reports for a text, with its default (pretty) message.
const firstError = (source: string) => {
  const errors = parseDocument(source).errors;
  expect(errors.length).toBeGreaterThan(0);
  return errors[0];
};

describe('yaml parse errors in plain words', () => {
  it('says a [ list is not closed, with its line and column once and no code frame', () => {
    const text = formatYamlError(firstError('name: researcher\nlimits:\n  max_turns: 3\n  bad: [unclosed\n'));
    expect(text).toMatch(/^line \d+, column \d+: a \[ list is not closed with \]$/);
    expect(text.match(/line \d+/g)).toHaveLength(1);
  });

  it('says a { map is not closed', () => {
    expect(yamlErrorMessage(firstError('name: x\nlimits: { max_turns: 3\n'))).toBe('a { map is not closed with }');
  });

  it('says a quote is not closed', () => {
    expect(yamlErrorMessage(firstError('name: "researcher\nversion: 1\n'))).toBe('a " quote is not closed');
  });

  it('names a key indented unlike its neighbours', () => {
    expect(formatYamlError(firstError('name: researcher\nversion: "1"\n  bad: 2\n'))).toBe(
      'line 3, column 1: this key is not indented like the keys before it',
    );
  });

  it('names a tab used to indent', () => {
    expect(formatYamlError(firstError('inference:\n\tmodel: x\n'))).toBe(
      'line 2, column 1: a tab is used to indent; YAML indents with spaces only',
    );
  });

  it('names a key written twice', () => {
    expect(formatYamlError(firstError('name: a\nname: b\n'))).toBe(
      'line 2, column 1: this key appears twice in the same map',
    );
  });

  it('keeps any other message, without its place and the code frame', () => {
    const e = firstError('a: b: c\n');
    const message = yamlErrorMessage(e);
    expect(e.message).toMatch(/at line 1, column \d+:\n/); // what the library says, code frame and all
    expect(message).not.toMatch(/line|column|:\s*$|\n/);
    expect(message.length).toBeGreaterThan(10);
  });

  it('words an error the same whether the library prettified it or not', () => {
    const source = 'name: x\n  bad: [unclosed\n';
    const plain = parseDocument(source, { prettyErrors: false }).errors[0];
    expect(yamlErrorMessage(plain)).toBe(yamlErrorMessage(firstError(source)));
  });
});
