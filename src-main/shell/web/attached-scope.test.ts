import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { createExposureStore, type ExposureStore } from '../../gateway';
import { createTestStudio, type TestStudio } from '../../workspace/test-studio';
import { hostCommandParts } from './attached-scope';
import { startRemoteStudio, STUDIO_TOKEN_NAME, type RemoteStudio } from './remote';
import { invokeOver, openSocket } from './socket.fixture';

// What a Studio token grants: by default an attached Studio works inside the served workspace and
// cannot make this host run commands (a harness CLI, a shell allow list), nor use folders outside.
// `--allow-host-commands` lifts both.

let studio: TestStudio | undefined;
let remote: RemoteStudio | undefined;
let tokens: ExposureStore | undefined;
let ws: WebSocket | undefined;
afterEach(async () => {
  ws?.close();
  await remote?.dispose();
  tokens?.dispose();
  await studio?.dispose();
  remote = studio = tokens = ws = undefined;
});

async function attach(allowHostCommands = false) {
  studio = await createTestStudio();
  tokens = createExposureStore(mkdtempSync(join(tmpdir(), 'capsule-scope-')));
  const { token } = tokens.enable(STUDIO_TOKEN_NAME);
  remote = await startRemoteStudio({
    core: studio.core,
    tokens,
    port: 0,
    scope: { allowHostCommands, workspaces: [studio.workspace] },
  });
  ws = await openSocket(`http://127.0.0.1:${remote.port}`, { authorization: `Bearer ${token}` });
  return (cmd: string, input: unknown = {}) => invokeOver(ws!, cmd, input);
}

const HARNESS =
  'inference:\n  transport: process\n  model: cli\n  driver:\n    artifact: capsule/driver-process\n  harness:\n    command: /bin/sh\n    args: ["-c", "id > /tmp/pwned"]\n';
const withHarness = (source: string, command = '/bin/sh') =>
  source.replace(/inference:[\s\S]*?\n(?=lifecycle:)/, `${HARNESS.replace('/bin/sh', command)}\n`);

describe('what an attached Studio may do', () => {
  it('cannot save a manifest that runs a harness CLI or shell commands on the host; other edits save', async () => {
    const invoke = await attach();
    const file = join(studio!.workspace, 'capsules', 'writer.yaml');
    const { value: read } = await invoke('manifest.read', { id: 'writer' });
    const harness = await invoke('manifest.write', { id: 'writer', source: withHarness(read.source) });
    expect(harness).toMatchObject({
      ok: false,
      error: { code: 'forbidden', message: expect.stringContaining('--allow-host-commands') },
    });
    // A variable standing for the transport counts as one (its value comes from the secret store).
    const viaVar = await invoke('manifest.write', {
      id: 'writer',
      source: read.source.replace('transport: embedded', 'transport: ${T}'),
    });
    expect(viaVar).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const shell = await invoke('manifest.write', {
      id: 'writer',
      source: `${read.source}capabilities:\n  shell:\n    allow: ["id"]\n`,
    });
    expect(shell).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(readFileSync(file, 'utf8')).toBe(read.source);
    const edit = await invoke('manifest.write', {
      id: 'writer',
      source: read.source.replace('Drafts short paragraphs.', 'Drafts prose.'),
    });
    expect(edit).toMatchObject({ ok: true });
    expect(readFileSync(file, 'utf8')).toContain('Drafts prose.');
  });

  it('cannot add a local MCP tool server, in a manifest or on the canvas; a remote one is fine', async () => {
    const invoke = await attach();
    const file = join(studio!.workspace, 'capsules', 'writer.yaml');
    const { value: read } = await invoke('manifest.read', { id: 'writer' });
    const local = await invoke('manifest.write', {
      id: 'writer',
      source: `${read.source}capabilities:\n  mcp:\n    servers:\n      - name: x\n        command: /bin/sh\n        args: ["-c", "id"]\n`,
    });
    expect(local).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(readFileSync(file, 'utf8')).toBe(read.source);
    const remoteServer = await invoke('manifest.write', {
      id: 'writer',
      source: `${read.source}capabilities:\n  mcp:\n    servers:\n      - name: x\n        url: https://mcp.example.com/mcp\n`,
    });
    expect(remoteServer).toMatchObject({ ok: true });
    const node = await invoke('mcp.addServer', {
      name: 'sh',
      server: { command: '/bin/sh', args: ['-c', 'id'] },
      position: { x: 0, y: 0 },
    });
    expect(node).toMatchObject({
      ok: false,
      error: { code: 'forbidden', message: expect.stringContaining('--allow-host-commands') },
    });
    expect(
      await invoke('mcp.addServer', {
        name: 'far',
        server: { url: 'https://mcp.example.com/mcp' },
        position: { x: 0, y: 0 },
      }),
    ).toMatchObject({ ok: true });
    expect(await invoke('mcp.updateServer', { id: 'mcp:far', server: { command: '/bin/sh' } })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
  });

  it('cannot open a tunnel (it runs a program on the host and opens the gateway to the internet)', async () => {
    const invoke = await attach();
    const r = await invoke('tunnel.create', { ttl: '1h' });
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'forbidden', message: expect.stringContaining('--allow-host-commands') },
    });
    expect((await invoke('tunnel.list', {})).value).toEqual({ tunnels: [] });
  });

  it('may edit a harness capsule the host wrote while its command stays as the host wrote it', async () => {
    const invoke = await attach();
    const file = join(studio!.workspace, 'capsules', 'writer.yaml');
    writeFileSync(file, withHarness(readFileSync(file, 'utf8'), 'my-agent-cli'));
    await invoke('workspace.open', { dir: studio!.workspace });
    const { value: read } = await invoke('manifest.read', { id: 'writer' });
    expect(
      await invoke('manifest.write', {
        id: 'writer',
        source: read.source.replace('Drafts short paragraphs.', 'Drafts prose.'),
      }),
    ).toMatchObject({ ok: true });
    const changed = await invoke('manifest.write', {
      id: 'writer',
      source: read.source.replace('my-agent-cli', '/bin/sh'),
    });
    expect(changed).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('opens, creates and exports only inside the served workspace, symbolic links resolved', async () => {
    const invoke = await attach();
    const outside = join(studio!.home, 'elsewhere');
    const created = await invoke('workspace.create', { dir: outside });
    expect(created).toMatchObject({
      ok: false,
      error: { code: 'forbidden', message: expect.stringContaining('outside the workspaces this host serves') },
    });
    expect(existsSync(outside)).toBe(false);
    mkdirSync(outside);
    symlinkSync(outside, join(studio!.workspace, 'link'));
    expect(await invoke('workspace.create', { dir: join(studio!.workspace, 'link', 'ws') })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(await invoke('deploy.write', { dir: join(outside, 'k8s') })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(existsSync(join(outside, 'k8s'))).toBe(false);
    expect(await invoke('deploy.write', { dir: join(studio!.workspace, 'k8s') })).toMatchObject({ ok: true });
    expect(await invoke('workspace.create', { dir: join(studio!.workspace, 'sub') })).toMatchObject({ ok: true });
    expect(await invoke('workspace.open', { dir: studio!.workspace })).toMatchObject({ ok: true });
  });

  it('lists folders only inside the served workspace: not the home, not through a link out of it', async () => {
    const invoke = await attach();
    const listed = await invoke('workspace.browse', { dir: studio!.workspace });
    expect(listed).toMatchObject({ ok: true });
    expect(listed.value.folders.map((f: { name: string }) => f.name)).toContain('capsules');
    expect(await invoke('workspace.browse', {})).toMatchObject({
      ok: false,
      error: { code: 'forbidden', message: expect.stringContaining('outside the workspaces this host serves') },
    });
    expect(await invoke('workspace.browse', { dir: studio!.home })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    mkdirSync(join(studio!.home, 'elsewhere'));
    symlinkSync(join(studio!.home, 'elsewhere'), join(studio!.workspace, 'out'));
    expect(await invoke('workspace.browse', { dir: join(studio!.workspace, 'out') })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
  });

  it('reads a relative workspace name where the core does (under the home), not under the host process folder', async () => {
    const invoke = await attach();
    const cwd = process.cwd();
    const home = process.env.HOME;
    // The host process runs from inside the served workspace; the home is the test's own.
    process.env.HOME = studio!.home;
    process.chdir(studio!.workspace);
    try {
      // Both would be inside the served workspace if read against this process's folder.
      expect(await invoke('workspace.browse', { dir: 'capsules' })).toMatchObject({
        ok: false,
        error: { code: 'forbidden' },
      });
      expect(await invoke('workspace.create', { dir: 'capsules-elsewhere' })).toMatchObject({
        ok: false,
        error: { code: 'forbidden' },
      });
      expect(existsSync(join(studio!.home, 'capsules-elsewhere'))).toBe(false);
    } finally {
      process.chdir(cwd);
      process.env.HOME = home;
    }
  });

  it('with --allow-host-commands, saves a harness manifest and uses folders elsewhere', async () => {
    const invoke = await attach(true);
    const { value: read } = await invoke('manifest.read', { id: 'writer' });
    expect(await invoke('manifest.write', { id: 'writer', source: withHarness(read.source) })).toMatchObject({
      ok: true,
    });
    expect(await invoke('deploy.write', { dir: join(studio!.home, 'k8s') })).toMatchObject({ ok: true });
  });

  it('reads the parts that run commands as written: none for plain or unparseable text', () => {
    expect(hostCommandParts('inference:\n  transport: http\n')).toBeUndefined();
    expect(hostCommandParts('inference: [\n')).toBeUndefined();
    expect(hostCommandParts('capabilities:\n  shell:\n    allow: []\n')).toBeUndefined();
    expect(hostCommandParts('capabilities:\n  shell:\n    allow: [ls]\n')).toContain('ls');
    expect(hostCommandParts('inference:\n  harness:\n    command: x\n')).toContain('"command":"x"');
  });
});
