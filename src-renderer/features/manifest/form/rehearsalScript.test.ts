import { describe, expect, it } from 'vitest';
import { applyEdits, pushAt, readData, setAt, valueAt } from './formDoc';
import {
  callPath,
  callsPath,
  delegationTargets,
  MAX_REPLIES,
  newCall,
  readScript,
  REPLIES,
  turnsPath,
} from './rehearsalScript';

const orchestrator = `name: orch
version: "0.1.0"
inference:
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
  rehearsal:
    delay_ms: 150
    replies:
      - when: task
        turns:
          - tool_calls:
              - name: delegate_task
                arguments: { to: "*", text: "{{task}}" }
              - name: shell
                arguments: { command: [git, status] }
              - name: lookup
                arguments: { q: 1 }
          - text: "{{tool_results}}"
            failed_text: none
            artifacts:
              - parts: [{ text: hi }]
`;

describe('the rehearsal script as the form reads it', () => {
  it('reads replies, turns, each kind of tool call, and names what only the YAML edits', () => {
    const s = readScript(readData(orchestrator));
    expect(s).toMatchObject({ delayMs: '150', malformed: false, hiddenReplies: 0 });
    const [t1, t2] = s.replies[0].turns;
    expect(s.replies[0].when).toBe('task');
    expect(t1.calls.map((c) => [c.name, c.to, c.text, c.command])).toEqual([
      ['delegate_task', '*', '{{task}}', ''],
      ['shell', '', '', 'git status'],
      ['lookup', '', '', ''],
    ]);
    expect(JSON.parse(t1.calls[2].argsJson)).toEqual({ q: 1 });
    expect(t2).toMatchObject({ text: '{{tool_results}}', failedText: 'none', others: ['artifacts'] });
  });

  it('never throws on a script of an unexpected shape', () => {
    const shapes: unknown[] = [
      null,
      1,
      'x',
      [],
      [1, 'a', null],
      { replies: 'x' },
      {
        replies: [
          1,
          null,
          { turns: 'x' },
          { turns: [1, null, { tool_calls: 'x' }, { tool_calls: [1, null, { arguments: 'x' }] }] },
        ],
      },
    ];
    for (const rehearsal of shapes) {
      const s = readScript({ inference: { rehearsal } });
      expect(Array.isArray(s.replies)).toBe(true);
    }
    expect(readScript({ inference: { rehearsal: 'x' } }).malformed).toBe(true);
    expect(readScript({ inference: { rehearsal: { replies: 'x' } } }).malformed).toBe(true);
    expect(readScript({ inference: { rehearsal: { replies: [1] } } }).replies[0].malformed).toBe(true);
    expect(readScript(null).replies).toEqual([]);
  });

  it('draws at most MAX_REPLIES replies and counts the rest', () => {
    const replies = Array.from({ length: MAX_REPLIES + 7 }, (_, i) => ({ when: `r${i}`, turns: [{ text: 'x' }] }));
    const s = readScript({ inference: { rehearsal: { replies } } });
    expect(s.replies).toHaveLength(MAX_REPLIES);
    expect(s.hiddenReplies).toBe(7);
  });

  it('adds a reply, a turn and a delegation chosen by name; writes read back', () => {
    let text = applyEdits(orchestrator, pushAt(REPLIES, { when: 'invoice', turns: [{ text: 'x' }] }));
    text = applyEdits(text, pushAt(callsPath(1, 0), newCall('delegate_task', 'worker')));
    text = applyEdits(text, setAt([...callPath(1, 0, 0), 'arguments', 'text'], 'Count: {{task}}'));
    text = applyEdits(text, pushAt(turnsPath(1), { text: '{{tool_results}}' }));
    const r = readScript(readData(text)).replies[1];
    expect(r.turns[0].calls[0]).toMatchObject({ name: 'delegate_task', to: 'worker', text: 'Count: {{task}}' });
    expect(r.turns[1].text).toBe('{{tool_results}}');
    // The flow map of the first reply's call is untouched.
    expect(text).toContain('arguments: { to: "*", text: "{{task}}" }');
    expect(valueAt(readData(text), [...REPLIES, 1, 'when'])).toBe('invoice');
  });

  it('offers every other capsule and "*" as delegation targets, and keeps one not in the formation', () => {
    expect(delegationTargets(['orch', 'a', 'b'], 'orch', 'a').map((t) => t.value)).toEqual(['*', 'a', 'b']);
    expect(delegationTargets(['orch'], 'orch', 'gone').at(-1)).toEqual({
      value: 'gone',
      label: 'gone (not in this formation)',
    });
    const remote = { url: 'https://far.example.com/a2a', name: 'Far' };
    expect(delegationTargets(['orch', 'a'], 'orch', remote.url, [remote])).toEqual([
      { value: '*', label: 'Every reachable worker (*)' },
      { value: 'a', label: 'a' },
      { value: remote.url, label: 'Far (remote agent)' },
    ]);
  });
});
