import { CompletionContext } from '@codemirror/autocomplete';
import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { manifestCompletion } from './completion';

/** The completion labels offered at the "¦" in the text. */
function offered(text: string, explicit = false): string[] | null {
  const pos = text.indexOf('¦');
  const state = EditorState.create({ doc: text.replace('¦', '') });
  const result = manifestCompletion(new CompletionContext(state, pos, explicit));
  return result ? result.options.map((o) => o.label) : null;
}

describe('manifestCompletion', () => {
  it('offers the keys of the map the caret is in', () => {
    expect(offered('name: w\nver¦')).toEqual(
      expect.arrayContaining(['version', 'description', 'inference', 'lifecycle']),
    );
    expect(offered('lifecycle:\n  qu¦')).toEqual(['task_acceptance', 'after_task', 'queue_depth', 'idle_timeout']);
    expect(offered('artifacts:\n  - na¦')).toEqual(['name', 'version', 'runtime', 'gateway']);
  });

  it('leaves out the keys the map already has, above or below the caret', () => {
    expect(offered('lifecycle:\n  after_task: sleep\n  qu¦\n  idle_timeout: 1m\nexports:\n  methods: []\n')).toEqual([
      'task_acceptance',
      'queue_depth',
    ]);
    expect(offered('name: w\nver¦\nversion: "1"\n')).not.toContain('version');
    expect(offered('name: w\nver¦\nversion: "1"\n')).not.toContain('name');
    // Another item of the same list is another map.
    expect(offered('artifacts:\n  - name: a\n    runtime: tool\n  - na¦\n  - name: c\n')).toEqual([
      'name',
      'version',
      'runtime',
      'gateway',
    ]);
    expect(offered('artifacts:\n  - name: a\n    ru¦\n  - runtime: tool\n')).toEqual(['version', 'runtime', 'gateway']);
  });

  it('offers enum values, true/false and the built-in drivers after key:', () => {
    expect(offered('role: ¦', true)).toEqual(['orchestrator', 'worker', 'agent']);
    expect(offered('exports:\n  peer_tasks:\n    accept: t¦')).toEqual(['true', 'false']);
    expect(offered('inference:\n  driver:\n    artifact: cap¦')).toContain('capsule/driver-rehearsal');
  });

  it('stays quiet where nothing fits: free text, unknown maps, an empty line unless asked', () => {
    expect(offered('description: Dra¦')).toBeNull();
    expect(offered('accepts:\n  ty¦')).toBeNull();
    expect(offered('lifecycle:\n  ¦')).toBeNull();
    expect(offered('lifecycle:\n  ¦', true)).toContain('queue_depth');
  });

  it('gives each key its documentation and kind', () => {
    const state = EditorState.create({ doc: 'lifecycle:\n  qu' });
    const result = manifestCompletion(new CompletionContext(state, state.doc.length, false))!;
    expect(result.options.find((o) => o.label === 'queue_depth')).toMatchObject({
      detail: 'number',
      info: expect.stringContaining('How many tasks may wait'),
      apply: 'queue_depth: ',
    });
    expect(result.options.find((o) => o.label === 'idle_timeout')?.apply).toBe('idle_timeout: ');
  });
});
