import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { editManifestSource, formatIssues, parseManifest, renderManifestTemplate } from './index';

const murmurWorker = readFileSync(join(__dirname, 'fixtures', 'murmur-worker-anthropic.yaml'), 'utf8');
const murmurOrchestrator = readFileSync(join(__dirname, 'fixtures', 'murmur-orchestrator-anthropic.yaml'), 'utf8');

const commented = `# The worker of the demo.
name: my-worker # stable name
version: "0.1.0"

artifacts:
  - name: murmur/driver-anthropic
    gateway:
      api_key: \${ANTHROPIC_API_KEY} # from the environment

inference:
  # which model answers
  model: 'claude-sonnet-5'
  driver:
    artifact: murmur/driver-anthropic

capabilities:
  network:
    allow:
      - example.com # docs
`;

/** The lines of `before` must all still be there, in the same order. */
function expectKept(before: string, after: string): void {
  const lines = after.split('\n');
  let at = 0;
  for (const line of before.split('\n').filter((l) => l.trim())) {
    const found = lines.indexOf(line, at);
    expect(found, `line kept in order: ${line}\n---\n${after}`).toBeGreaterThanOrEqual(0);
    at = found + 1;
  }
}

describe('editManifestSource', () => {
  it('addAllow appends to the list, keeps comments, and skips equivalent spellings', () => {
    const out = editManifestSource(commented, [{ op: 'addAllow', entry: 'localhost:52222' }]);
    expectKept(commented, out);
    expect(out).toContain('      - example.com # docs\n      - localhost:52222\n');
    expect(editManifestSource(out, [{ op: 'addAllow', entry: 'LOCALHOST:52222' }])).toBe(out);
  });

  it('addAllow creates the missing parent maps, separated like the other sections', () => {
    const out = editManifestSource(murmurWorker, [{ op: 'addAllow', entry: 'localhost:52223' }]);
    expectKept(murmurWorker, out);
    expect(out.endsWith('\n\ncapabilities:\n  network:\n    allow:\n      - localhost:52223\n')).toBe(true);
    expect(parse(out).capabilities.network.allow).toEqual(['localhost:52223']);
  });

  it('removeAllow removes every equivalent entry and nothing else', () => {
    // 127.1 is 127.0.0.1; localhost and ::1 are other entries (localhost means both addresses).
    const src =
      'name: o\ncapabilities:\n  network:\n    allow:\n      - 127.0.0.1:52222 # worker\n      - example.com # docs\n      - "127.1:52222"\n      - localhost:52223\n';
    const out = editManifestSource(src, [{ op: 'removeAllow', entry: '127.0.0.1:52222' }]);
    expect(out).toBe(
      'name: o\ncapabilities:\n  network:\n    allow:\n      - example.com # docs\n      - localhost:52223\n',
    );
    expect(editManifestSource(murmurOrchestrator, [{ op: 'removeAllow', entry: 'localhost:52222' }])).toContain(
      '    allow: []\n',
    );
  });

  it('setPeerAccept and setInternalPort change the value in place, keeping its comment', () => {
    const src =
      'name: w # n\nnetwork:\n  internal_port: 4000 # pinned\nexports:\n  peer_tasks:\n    accept: false # off for now\n';
    const out = editManifestSource(src, [
      { op: 'setPeerAccept', value: true },
      { op: 'setInternalPort', port: 52222 },
    ]);
    expect(out).toBe(
      'name: w # n\nnetwork:\n  internal_port: 52222 # pinned\nexports:\n  peer_tasks:\n    accept: true # off for now\n',
    );
  });

  it('set and delete work on any path, indexing lists and keeping quoting', () => {
    let out = editManifestSource(commented, [
      { op: 'set', path: ['inference', 'model'], value: 'claude-opus-5' },
      { op: 'set', path: ['artifacts', '0', 'version'], value: '0.20.0' },
      { op: 'set', path: ['inference', 'budget', 'max_usd'], value: 2 },
    ]);
    expect(out).toContain("  # which model answers\n  model: 'claude-opus-5'\n");
    expect(out).toContain('      api_key: ${ANTHROPIC_API_KEY} # from the environment\n    version: 0.20.0\n');
    expect(parse(out).inference.budget).toEqual({ max_usd: 2 });
    out = editManifestSource(out, [
      { op: 'delete', path: ['inference', 'budget'] },
      { op: 'delete', path: ['capabilities', 'network', 'allow', '0'] },
      { op: 'delete', path: ['not', 'there'] },
    ]);
    expect(parse(out).inference.budget).toBeUndefined();
    expect(parse(out).capabilities.network.allow).toEqual([]);
    expect(out.startsWith('# The worker of the demo.\nname: my-worker # stable name\n')).toBe(true);
  });

  it('keeps ${VAR} text verbatim and the murmur manifest loadable', () => {
    const out = editManifestSource(murmurWorker, [
      { op: 'setPeerAccept', value: false },
      { op: 'setInternalPort', port: 52230 },
    ]);
    expect(out).toContain('      api_key: ${ANTHROPIC_API_KEY}\n');
    expect(out).toBe(
      murmurWorker.replace('internal_port: 52222', 'internal_port: 52230').replace('accept: true', 'accept: false'),
    );
    const r = parseManifest(out, 'w.yaml', { ANTHROPIC_API_KEY: 'k' });
    expect(r.ok && r.manifest.network?.internal_port).toBe(52230);
  });

  it('keeps a list style that puts dashes level with the key, and flow lists as flow', () => {
    const level = 'capabilities:\n  network:\n    allow:\n    - a.com\n';
    expect(editManifestSource(level, [{ op: 'addAllow', entry: 'b.com' }])).toBe(
      'capabilities:\n  network:\n    allow:\n    - a.com\n    - b.com\n',
    );
    const flow = 'capabilities:\n  network:\n    allow: [a.com, b.com]\n';
    expect(editManifestSource(flow, [{ op: 'addAllow', entry: 'c.com' }])).toBe(
      'capabilities:\n  network:\n    allow: [a.com, b.com, c.com]\n',
    );
    // Padded flow maps, as the README writes rehearsal scripts, stay padded.
    const padded =
      'inference:\n  rehearsal:\n    replies:\n      - turns:\n          - tool_calls:\n              - { name: delegate_task, arguments: { to: w, text: "{{task}}" } }\n';
    expect(editManifestSource(padded, [{ op: 'setInternalPort', port: 4000 }])).toBe(
      `${padded}network:\n  internal_port: 4000\n`,
    );
  });

  it('returns the text untouched when nothing changes, and grows an empty flow list into a block', () => {
    const odd = 'name: w   # spaced comment\nexports:\n  peer_tasks:\n    accept: true\n';
    expect(
      editManifestSource(odd, [
        { op: 'setPeerAccept', value: true },
        { op: 'removeAllow', entry: 'a.com' },
      ]),
    ).toBe(odd);
    const template = renderManifestTemplate('orchestrator', 'boss');
    const out = editManifestSource(template, [{ op: 'addAllow', entry: 'localhost:52222' }]);
    expectKept(template.replace('    allow: []\n', ''), out);
    expect(out).toContain('    allow:\n      - localhost:52222\n');
  });

  it('keeps a four-space indentation', () => {
    const wide = 'name: w\ninference:\n    model: x\n    driver:\n        artifact: capsule/driver-rehearsal\n';
    expect(editManifestSource(wide, [{ op: 'setInternalPort', port: 4000 }])).toBe(
      `${wide}network:\n    internal_port: 4000\n`,
    );
  });

  it('refuses to edit broken YAML and validates its operations', () => {
    expect(() => editManifestSource('name: [\n', [{ op: 'setPeerAccept', value: true }])).toThrow(/YAML syntax error/);
    expect(() => editManifestSource('name: a\n', [{ op: 'setInternalPort', port: 70000 }])).toThrow();
    expect(editManifestSource('', [{ op: 'set', path: ['name'], value: 'a' }])).toBe('name: a\n');
  });
});

describe('renderManifestTemplate', () => {
  it('renders a commented worker on the rehearsal driver that loads', () => {
    const text = renderManifestTemplate('worker', 'worker-a');
    expect(text).toMatch(/^# /);
    const r = parseManifest(text, 'w.yaml', {});
    if (!r.ok) throw new Error(formatIssues(r.issues));
    expect(r.manifest).toMatchObject({
      name: 'worker-a',
      role: 'worker',
      inference: { driver: { artifact: 'capsule/driver-rehearsal' } },
    });
    expect(r.manifest.inference.rehearsal?.replies).toEqual([]);
  });

  it('renders an orchestrator whose script delegates any message with delegate_task', () => {
    const r = parseManifest(
      renderManifestTemplate('orchestrator', 'boss', { delegateTo: ['worker-a', 'worker-b'] }),
      'o.yaml',
      {},
    );
    if (!r.ok) throw new Error(formatIssues(r.issues));
    const replies = r.manifest.inference.rehearsal?.replies ?? [];
    // One reply for every message: whatever a newcomer types first is delegated.
    expect(replies).toHaveLength(1);
    const [delegate] = replies;
    expect(delegate.when).toBeUndefined();
    expect(delegate.turns[0].tool_calls).toEqual([
      { name: 'delegate_task', arguments: { to: 'worker-a', text: expect.any(String) } },
      { name: 'delegate_task', arguments: { to: 'worker-b', text: expect.any(String) } },
    ]);
    expect(delegate.turns[1].text).toBeTruthy();
    expect(r.manifest.capabilities?.network?.allow).toEqual([]);
  });

  it('delegates by default to every worker the orchestrator may reach, and reports each outcome', () => {
    const r = parseManifest(renderManifestTemplate('orchestrator', 'boss'), 'o.yaml', {});
    if (!r.ok) throw new Error(formatIssues(r.issues));
    const [delegate] = r.manifest.inference.rehearsal?.replies ?? [];
    expect(delegate.turns[0].tool_calls).toEqual([{ name: 'delegate_task', arguments: { to: '*', text: '{{task}}' } }]);
    expect(delegate.turns[1]).toMatchObject({
      text: expect.stringContaining('{{tool_results}}'),
      failed_text: expect.stringContaining('{{tool_results}}'),
    });
    expect(delegate.turns[1].text).not.toMatch(/answered;|results are above/);
  });

  it('refuses a name a manifest would refuse', () => {
    expect(() => renderManifestTemplate('worker', 'bad name')).toThrow(/not a capsule name/);
  });
});
