import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_CONSOLE_ENTRIES, MAX_CONVERSATIONS, type KeptConversations } from '../../src-shared/contract';
import { createCore, type Core } from '../core';
import { EXAMPLE_FOLDER } from './example';
import { conversationsFile } from './keep-commands';
import { RESOURCES } from './test-studio';

// The user's work survives a restart: conversations in the workspace's own Studio folder (bounded,
// secrets masked), the last workspace reopened, panel sizes and the selected capsule kept.

const SECRET = 'sk-live-4f0c9a7e2b';
let home: string;
const cores: Core[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.dispose()));
  rmSync(home, { recursive: true, force: true });
});

/** A core on `home`, as `npm start` makes it: no workspace named unless given. */
async function start(workspace?: string): Promise<Core> {
  const core = createCore({
    userDataDir: join(home, 'data'),
    resourcesDir: RESOURCES,
    recordsRoot: join(home, 'records'),
    workspace,
    watchDebounceMs: 30,
    env: { CAPSULE_HOME: home },
  });
  cores.push(core);
  await core.ready;
  return core;
}

function workspaceCopy(name: string): string {
  const dir = join(home, name);
  cpSync(join(RESOURCES, 'example-workspace'), dir, { recursive: true });
  return dir;
}

const sample = (text: string): KeptConversations => ({
  conversations: [{ id: 1, capsuleId: 'coordinator', contextId: 'ctx_1' }],
  entries: [
    {
      key: 1,
      capsuleId: 'coordinator',
      conversation: 1,
      text,
      taskId: 'tsk_1',
      sessionId: `ses_${'0'.repeat(31)}1`,
      state: 'TASK_STATE_COMPLETED',
      answer: `done: ${text}`,
    },
  ],
  current: { coordinator: 1 },
});

describe('kept conversations', () => {
  it('are written to the workspace Studio folder, read back after a restart that reopens the last workspace, with secrets masked', async () => {
    home = mkdtempSync(join(tmpdir(), 'studio-keep-'));
    const mine = workspaceCopy('mine');
    const first = await start();
    // No workspace named and none opened before: the example copy.
    expect((await first.invoke('workspace.current', {})).dir).toBe(join(home, 'data', EXAMPLE_FOLDER));
    await first.invoke('workspace.open', { dir: mine });
    expect(await first.invoke('conversations.get', {})).toEqual({
      conversations: [],
      entries: [],
      current: {},
      file: conversationsFile(mine),
    });
    await first.invoke('secrets.set', { name: 'API_TOKEN', value: SECRET });
    const saved = await first.invoke('conversations.save', sample(`use ${SECRET} to sum the invoices`));
    expect(saved.file).toBe(join(mine, '.studio', 'conversations.json'));
    expect(readFileSync(saved.file, 'utf8')).not.toContain(SECRET);
    // Kept out of version control by default.
    expect(readFileSync(join(mine, '.studio', '.gitignore'), 'utf8')).toMatch(/^\*$/m);
    await first.dispose();

    const second = await start();
    expect((await second.invoke('workspace.current', {})).dir).toBe(mine);
    const back = await second.invoke('conversations.get', {});
    expect(back.entries).toEqual([
      { ...sample('').entries[0], text: 'use *** to sum the invoices', answer: 'done: use *** to sum the invoices' },
    ]);
    expect(back.conversations).toEqual(sample('').conversations);
    expect(back.current).toEqual({ coordinator: 1 });
  });

  it('keeps at most 20 conversations a capsule and refuses more than 200 messages or overlong text', async () => {
    home = mkdtempSync(join(tmpdir(), 'studio-keep-'));
    const core = await start(workspaceCopy('ws'));
    const ids = Array.from({ length: MAX_CONVERSATIONS + 3 }, (_, i) => i + 1);
    await core.invoke('conversations.save', {
      conversations: ids.map((id) => ({ id, capsuleId: 'coordinator' })),
      entries: ids.map((id) => ({ key: id, capsuleId: 'coordinator', conversation: id, text: `message ${id}` })),
      current: { coordinator: 1 },
    });
    const kept = await core.invoke('conversations.get', {});
    expect(kept.conversations.map((c) => c.id)).toEqual(ids.slice(3));
    expect(kept.entries.map((e) => e.text)).toEqual(ids.slice(3).map((id) => `message ${id}`));
    // The open conversation was among the dropped ones: the next message starts a new one.
    expect(kept.current).toEqual({});

    const many = Array.from({ length: MAX_CONSOLE_ENTRIES + 1 }, (_, i) => ({
      key: i,
      capsuleId: 'coordinator',
      conversation: 1,
      text: 'x',
    }));
    await expect(
      core.invoke('conversations.save', { conversations: [], entries: many, current: {} }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(core.invoke('conversations.save', sample('y'.repeat(5000)))).rejects.toMatchObject({
      code: 'invalid_input',
    });
    // The session that ran a task is a session id, nothing else (the page reads that session's trace).
    const notASession = sample('z');
    notASession.entries[0].sessionId = '../../etc';
    await expect(core.invoke('conversations.save', notASession)).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('reads a damaged or foreign file as no conversations, and a workspace left on disk is not reopened once gone', async () => {
    home = mkdtempSync(join(tmpdir(), 'studio-keep-'));
    const ws = workspaceCopy('ws');
    const core = await start(ws);
    await core.invoke('conversations.save', sample('hello'));
    writeFileSync(conversationsFile(ws), '{"conversations": [ {');
    expect((await core.invoke('conversations.get', {})).entries).toEqual([]);
    writeFileSync(conversationsFile(ws), JSON.stringify({ ...sample('hello'), entries: [{ key: 'not a number' }] }));
    expect((await core.invoke('conversations.get', {})).entries).toEqual([]);
    await core.dispose();

    rmSync(ws, { recursive: true });
    const next = await start();
    expect((await next.invoke('workspace.current', {})).dir).toBe(join(home, 'data', EXAMPLE_FOLDER));
  });
});

describe('kept layout', () => {
  it('keeps panel sizes and the selected capsule per workspace across a restart', async () => {
    home = mkdtempSync(join(tmpdir(), 'studio-keep-'));
    const a = workspaceCopy('a');
    const b = workspaceCopy('b');
    const first = await start(a);
    expect(await first.invoke('layout.get', {})).toEqual({ panels: {}, selected: null });
    await first.invoke('layout.set', { panels: { side: 520 } });
    await first.invoke('layout.set', { selected: 'writer' });
    expect(await first.invoke('layout.set', { panels: { console: 260 } })).toEqual({
      panels: { side: 520, console: 260 },
      selected: 'writer',
    });
    await expect(first.invoke('layout.set', { panels: { side: -1 } })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(first.invoke('layout.set', { panels: { canvas: 10 } as never })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    // Another workspace has a layout of its own.
    await first.invoke('workspace.open', { dir: b });
    expect(await first.invoke('layout.get', {})).toEqual({ panels: {}, selected: null });
    await first.invoke('layout.set', { selected: 'coordinator' });
    await first.invoke('workspace.open', { dir: a });
    await first.dispose();

    const second = await start();
    expect(await second.invoke('layout.get', {})).toEqual({ panels: { side: 520, console: 260 }, selected: 'writer' });
    await second.invoke('layout.set', { selected: null });
    expect((await second.invoke('layout.get', {})).selected).toBeNull();
  });

  it('keeps the open details tab beside the selection, and refuses a tab that does not exist', async () => {
    home = mkdtempSync(join(tmpdir(), 'studio-keep-'));
    const first = await start(workspaceCopy('a'));
    await first.invoke('layout.set', { selected: 'writer', tab: 'tasks' });
    await first.invoke('layout.set', { panels: { side: 400 } });
    await expect(first.invoke('layout.set', { tab: 'yaml' as never })).rejects.toMatchObject({ code: 'invalid_input' });
    await first.dispose();
    const second = await start();
    expect(await second.invoke('layout.get', {})).toEqual({ panels: { side: 400 }, selected: 'writer', tab: 'tasks' });
  });

  it('refuses a late write meant for another workspace, and never brings a deleted workspace back', async () => {
    home = mkdtempSync(join(tmpdir(), 'studio-keep-'));
    const a = workspaceCopy('a');
    const b = workspaceCopy('b');
    const core = await start(a);
    await core.invoke('workspace.open', { dir: b });
    // A page still showing `a` saves after `b` opened: nothing lands in `b`.
    await expect(core.invoke('conversations.save', { ...sample('for a'), workspace: a })).rejects.toMatchObject({
      code: 'conflict',
    });
    await expect(core.invoke('layout.set', { workspace: a, selected: 'writer' })).rejects.toMatchObject({
      code: 'conflict',
    });
    expect((await core.invoke('conversations.get', {})).entries).toEqual([]);
    expect((await core.invoke('layout.get', {})).selected).toBeNull();
    // The open workspace's folder removed under the Studio: a save does not recreate it.
    rmSync(b, { recursive: true });
    await expect(core.invoke('conversations.save', { ...sample('late'), workspace: b })).rejects.toMatchObject({
      code: 'workspace_missing',
    });
    expect(existsSync(b)).toBe(false);
  });
});
