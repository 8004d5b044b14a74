import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { IssueView } from '../../../src-shared/contract';
import { ManifestForm } from './ManifestForm';

// The form drawn for drafts of every shape (server-rendered, no DOM needed): it never throws, and
// each problem shows at its own field.

const render = (draft: string, issues: IssueView[] = []) =>
  renderToStaticMarkup(<ManifestForm capsuleId="c" draft={draft} issues={issues} onChange={() => undefined} />);

const good = `name: orch
version: "0.1.0"
inference:
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
  max_turns: 0
  rehearsal:
    replies:
      - turns:
          - text: hi
      - when: task
        turns:
          - tool_calls:
              - name: delegate_task
                arguments: { to: worker, text: "{{task}}" }
artifacts:
  - name: murmur/driver-anthropic
    gateway:
      api_key: sk-ant-literal-key
capabilities:
  network:
    allow: [api.example.com]
`;

describe('the manifest form', () => {
  it('draws every section of a manifest', () => {
    const html = render(good);
    for (const title of [
      'Capsule',
      'Driver and model',
      'Behaviour',
      'Limits',
      'Rehearsal script',
      'Network and permissions',
      'Lifecycle',
      'Skills',
      'Contracts',
    ])
      expect(html).toContain(`>${title}</h3>`);
    expect(html).toContain('aria-label="Reply 2 turn 1 call 1 delegate to"');
    expect(html).toContain('answers every task first, so this one is never used');
  });

  it('shows a problem at its field, in either spelling of list indexes', () => {
    const html = render(good, [
      { line: 7, path: 'inference.max_turns', message: 'Too small: expected number to be >0' },
      {
        line: 16,
        path: 'inference.rehearsal.replies[1].turns[0].tool_calls[0].arguments.to',
        message: 'no capsule named worker',
      },
    ]);
    expect(html).toMatch(
      /aria-invalid="true"[^>]*aria-describedby="[^"]+-error"[^>]*>.*?Too small: expected number to be &gt;0/s,
    );
    expect(html).toContain('no capsule named worker');
  });

  it('never shows a key written as text, and says to name a secret instead', () => {
    const html = render(good.replace('capsule/driver-rehearsal', 'murmur/driver-anthropic'));
    expect(html).not.toContain('sk-ant-literal-key');
    expect(html).toContain('The key is written into the manifest as text');
  });

  it('draws drafts of unexpected shapes without throwing', () => {
    const drafts = [
      '',
      'name: [oops',
      '- a list\n- not a map\n',
      'just text',
      'name: x\ninference: 3\n',
      'name: x\ninference:\n  rehearsal: nope\n  driver: { artifact: capsule/driver-rehearsal }\n',
      'name: x\ninference:\n  driver: { artifact: capsule/driver-rehearsal }\n  rehearsal:\n    replies: [1, null, {turns: x}, {turns: [1, {tool_calls: [1, {name: 2, arguments: 3}]}]}]\n',
      'name: x\nartifacts: nope\ninference: { driver: { artifact: murmur/driver-openai } }\n',
      'name: x\nartifacts: [1, {name: murmur/driver-openai, gateway: 5}]\ninference: { driver: { artifact: murmur/driver-openai } }\n',
      'name: x\ncapabilities: { network: { allow: { a: 1 } }, shell: { allow: [1, [2], {x: 3}] } }\n',
      'name: x\nskills: [1, {id: [1]}, null]\naccepts: [1]\nresponds: "x"\n',
      'name: x\nlifecycle: [1]\nnetwork: 5\nexports: { peer_tasks: 1 }\n',
    ];
    for (const d of drafts) expect(() => render(d)).not.toThrow();
    expect(render('name: [oops')).toContain('the form is paused');
  });
});
