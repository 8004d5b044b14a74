import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../core';
import { RESOURCES } from './test-studio';
import { resolveWorkspaceDir } from './workspace-dir';

// A relative workspace name lands under the user's home (here a stand-in root), never in the
// folder the Studio happens to run from; the answer names the absolute folder.

let home: string | undefined;
let core: Core | undefined;
afterEach(async () => {
  await core?.dispose();
  if (home) rmSync(home, { recursive: true, force: true });
  core = home = undefined;
});

describe('resolveWorkspaceDir', () => {
  it('puts relative names under the root, ~ under the home, and keeps absolute paths', () => {
    expect(resolveWorkspaceDir('first', '/home/ada')).toBe('/home/ada/first');
    expect(resolveWorkspaceDir('work/../agents', '/home/ada')).toBe('/home/ada/agents');
    expect(resolveWorkspaceDir('~/agents', '/elsewhere')).toBe(join(homedir(), 'agents'));
    expect(resolveWorkspaceDir('/srv/agents', '/home/ada')).toBe('/srv/agents');
    expect(resolveWorkspaceDir('first')).toBe(join(homedir(), 'first'));
  });
});

describe('workspace.create with a relative name', () => {
  it('creates it under the workspaces root, not the working directory, and opens it by the same name', async () => {
    home = mkdtempSync(join(tmpdir(), 'studio-wsdir-'));
    const root = join(home, 'user');
    const base = home;
    core = createCore({
      userDataDir: join(base, 'data'),
      resourcesDir: RESOURCES,
      recordsRoot: join(base, 'records'),
      workspacesRoot: root,
      env: { CAPSULE_HOME: base },
    });
    await core.ready;
    const name = `first-${process.pid}`;
    const view = await core.invoke('workspace.create', { dir: name });
    expect(view.dir).toBe(join(root, name));
    expect(existsSync(join(root, name, 'formation.yaml'))).toBe(true);
    expect(existsSync(join(process.cwd(), name))).toBe(false);
    expect((await core.invoke('workspace.open', { dir: name })).dir).toBe(join(root, name));
  });
});
