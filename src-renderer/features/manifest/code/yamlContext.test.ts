import { describe, expect, it } from 'vitest';
import { yamlContextAt, yamlKeyAt } from './yamlContext';

/** The context at the "¦" in the text. */
const at = (text: string) => yamlContextAt(text.replace('|', ''), text.indexOf('¦'));

describe('yamlContextAt', () => {
  it('finds a key being typed at the top level and in nested maps', () => {
    expect(at('name: w\nver¦')).toMatchObject({ path: [], at: 'key', typed: 'ver', from: 8 });
    expect(at('inference:\n  model: x\n  dri¦')).toMatchObject({ path: ['inference'], at: 'key', typed: 'dri' });
    expect(at('inference:\n  driver:\n    art¦')).toMatchObject({ path: ['inference', 'driver'], typed: 'art' });
    expect(at('inference:\n  driver:\n    artifact: x\n  # a comment\n\n  max¦')).toMatchObject({
      path: ['inference'],
      typed: 'max',
    });
  });

  it('finds a value after key:', () => {
    expect(at('role: orc¦')).toMatchObject({ path: [], at: 'value', key: 'role', typed: 'orc', from: 6 });
    expect(at('lifecycle:\n  after_task: "ex¦')).toMatchObject({ path: ['lifecycle'], key: 'after_task', typed: 'ex' });
  });

  it('steps into list items, with the dash under or right of the parent key', () => {
    expect(at('artifacts:\n  - name: a\n    run¦')).toMatchObject({ path: ['artifacts', '[]'], typed: 'run' });
    expect(at('artifacts:\n- name: a\n  runtime: t¦')).toMatchObject({
      path: ['artifacts', '[]'],
      key: 'runtime',
      at: 'value',
    });
    expect(at('artifacts:\n  - na¦')).toMatchObject({ path: ['artifacts', '[]'], item: true, typed: 'na' });
    const script =
      'inference:\n  rehearsal:\n    replies:\n    - when: hi\n      turns:\n      - text: hi\n        sto¦';
    expect(at(script)).toMatchObject({
      path: ['inference', 'rehearsal', 'replies', '[]', 'turns', '[]'],
      typed: 'sto',
    });
    expect(at('inference:\n  rehearsal:\n    replies:\n    - turns:\n      - text: hi\n    - wh¦')).toMatchObject({
      path: ['inference', 'rehearsal', 'replies', '[]'],
      typed: 'wh',
    });
    expect(at('exports:\n  methods:\n    - SendMessage\n    - Get¦')).toMatchObject({
      path: ['exports', 'methods', '[]'],
      item: true,
      typed: 'Get',
    });
  });

  it('offers nothing in a comment, a block scalar or a flow collection', () => {
    expect(at('# nam¦')).toBeUndefined();
    expect(at('inference:\n  system_prompt: |\n    be brief and na¦')).toBeUndefined();
    expect(at('tags: [a, b¦')).toBeUndefined();
  });
});

describe('yamlKeyAt', () => {
  it('names the key under the pointer with its path', () => {
    const text = 'inference:\n  driver:\n    artifact: capsule/driver-rehearsal\n';
    expect(yamlKeyAt(text, text.indexOf('artifact') + 3)).toEqual({
      path: ['inference', 'driver'],
      key: 'artifact',
      from: text.indexOf('artifact'),
      to: text.indexOf('artifact') + 8,
    });
    expect(yamlKeyAt(text, text.indexOf('capsule/'))).toBeUndefined();
  });
});
