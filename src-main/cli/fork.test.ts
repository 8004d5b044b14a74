import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSession } from '../launch';
import { staticFormation } from '../runtime/tools';

// `capsule fork` as a user runs it: a session recorded in CAPSULE_HOME is forked with another
// message; the fork answers it and its trace says where it came from.

const BIN = resolve(__dirname, '../../bin/capsule.js');
let home: string;

const MANIFEST = `name: tides
version: "0.1.0"
inference:
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
  rehearsal:
    replies:
      - when: moon
        turns:
          - text: "About the moon"
      - turns:
          - text: "About tides"
`;

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((ok) =>
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, CAPSULE_HOME: home }, timeout: 60_000 },
      (err, stdout, stderr) => ok({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'capsule-fork-cli-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

it('forks a recorded task with another message and records where the fork came from', async () => {
  const manifest = join(home, 'tides.yaml');
  writeFileSync(manifest, MANIFEST);
  const s = await startSession({ manifestPath: manifest, env: { ...process.env, CAPSULE_HOME: home }, port: 0 });
  await s.acceptMessage({
    message: { messageId: 'msg-1', role: 'ROLE_USER', parts: [{ text: 'Tell me about tides' }] },
  }).settled;
  await s.end('recorded');

  const r = await cli(['fork', '--from', s.id, '--message', 'Tell me about the moon']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('state: TASK_STATE_COMPLETED');
  expect(r.stdout).toContain('About the moon');
  const forkId = /^fork: (ses_[0-9a-f]{32}) of /m.exec(r.stdout)![1];
  const start = JSON.parse(readFileSync(join(home, 'records', forkId, 'trace.jsonl'), 'utf8').split('\n')[0]);
  expect(start.forked_from).toMatchObject({ session_id: s.id, turn: 1, driver: 'real', edited: true });

  const bad = await cli(['fork', '--from', s.id, '--turn', '4']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('turn 1 to 1');
}, 120_000);

it('at a later turn says which turns replay and what their delegations send, and sends a delegation as edited with --delegation', async () => {
  const ws = mkdtempSync(join(home, 'ws-'));
  const write = (name: string, body: string) => {
    mkdirSync(join(ws, name), { recursive: true });
    writeFileSync(join(ws, name, 'murmur.yaml'), body);
  };
  const rehearsalOf = (turns: string) =>
    `version: "0.1.0"\ninference:\n  model: rehearsal\n  driver:\n    artifact: capsule/driver-rehearsal\n  rehearsal:\n    replies:\n      - turns:\n${turns}`;
  write(
    'writer',
    `name: writer\nexports:\n  peer_tasks:\n    accept: true\n${rehearsalOf('          - text: "writer got: {{task}}"\n')}`,
  );
  write(
    'boss',
    `name: boss\n${rehearsalOf('          - tool_calls:\n              - name: delegate_task\n                arguments: { to: writer, text: "Draft a paragraph." }\n          - text: "done: {{tool_results}}"\n')}`,
  );
  writeFileSync(
    join(ws, 'formation.yaml'),
    'capsules:\n  - { id: boss, manifest: boss/murmur.yaml }\n  - { id: writer, manifest: writer/murmur.yaml }\nremotes: []\n',
  );
  const env = { ...process.env, CAPSULE_HOME: home };
  const s = await startSession({
    manifestPath: join(ws, 'boss', 'murmur.yaml'),
    env,
    port: 0,
    formation: staticFormation({ writer: { kind: 'manifest', manifestPath: join(ws, 'writer', 'murmur.yaml') } }),
  });
  await s.acceptMessage({ message: { messageId: 'msg-2', role: 'ROLE_USER', parts: [{ text: 'write it' }] } }).settled;
  await s.end('recorded');

  const plain = await cli(['fork', '--from', s.id, '--turn', '2', '--workspace', ws]);
  expect(plain.stderr).toBe('');
  const listed = /^ {2}turn 1 delegation (\S+) to writer: "Draft a paragraph\."$/m.exec(plain.stdout);
  expect(plain.stdout).toContain('replayed: turn 1 from the recording\n');
  expect(listed).not.toBeNull();

  const edited = await cli([
    'fork',
    '--from',
    s.id,
    '--turn',
    '2',
    '--workspace',
    ws,
    '--delegation',
    `${listed![1]}=Draft a haiku.`,
  ]);
  expect(edited.stdout).toContain(`  turn 1 delegation ${listed![1]} to writer (edited): "Draft a haiku."`);
  expect(edited.stdout).toContain('state: TASK_STATE_COMPLETED');
  expect(edited.stdout).toContain('writer got: Draft a haiku.');
  const bad = await cli(['fork', '--from', s.id, '--turn', '2', '--delegation', 'no-equals']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--delegation takes CALL=TEXT');
}, 120_000);
