import { cpSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestStudio, type TestStudio } from './test-studio';
import { landsInside, realPathOf } from './files';

// Symbolic links inside a workspace must not let the Studio (or a Studio attached from another
// machine) read or write files outside it: every manifest and formation path is checked where it
// really lands, right before the read or write.

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

describe('symbolic links in a workspace', () => {
  it('refuses to write a manifest through a linked folder that leads outside, and leaves the outside file as it was', async () => {
    studio = await createTestStudio();
    const outside = join(studio.home, 'outside');
    cpSync(join(studio.workspace, 'capsules'), outside, { recursive: true });
    renameSync(join(studio.workspace, 'capsules'), join(studio.home, 'old-capsules'));
    symlinkSync(outside, join(studio.workspace, 'capsules'));
    await studio.core.invoke('workspace.open', { dir: studio.workspace });
    const before = readFileSync(join(outside, 'writer.yaml'), 'utf8');
    await expect(studio.core.invoke('manifest.write', { id: 'writer', source: 'name: pwned\n' })).rejects.toMatchObject(
      {
        code: 'invalid_input',
        message: expect.stringContaining('outside the workspace folder through a symbolic link'),
      },
    );
    expect(readFileSync(join(outside, 'writer.yaml'), 'utf8')).toBe(before);
    const f = await studio.core.invoke('formation.get', {});
    expect(f.capsules.find((c) => c.id === 'writer')!.issues[0]!.message).toContain('symbolic link');
  });

  it('does not show an outside file through a linked manifest', async () => {
    studio = await createTestStudio();
    const secret = join(studio.home, 'private.txt');
    writeFileSync(secret, 'name: private-key-material\n');
    const manifest = join(studio.workspace, 'capsules', 'writer.yaml');
    renameSync(manifest, join(studio.home, 'writer.yaml'));
    symlinkSync(secret, manifest);
    await studio.core.invoke('workspace.open', { dir: studio.workspace });
    const read = await studio.core.invoke('manifest.read', { id: 'writer' });
    expect(read.source).toBe('');
    expect(read.issues[0]!.message).toContain('leads outside the workspace folder through a symbolic link');
    const f = await studio.core.invoke('formation.get', {});
    expect(JSON.stringify(f)).not.toContain('private-key-material');
    // The Kubernetes export shows manifest text: it refuses the linked one rather than show it.
    await expect(studio.core.invoke('deploy.preview', {})).rejects.toMatchObject({
      message: expect.stringContaining('writer: capsules/writer.yaml leads outside the workspace folder'),
    });
  });

  it('still reads and writes through links that stay inside the workspace', async () => {
    studio = await createTestStudio();
    const real = join(studio.workspace, 'real-capsules');
    renameSync(join(studio.workspace, 'capsules'), real);
    symlinkSync(real, join(studio.workspace, 'capsules'));
    await studio.core.invoke('workspace.open', { dir: studio.workspace });
    const read = await studio.core.invoke('manifest.read', { id: 'writer' });
    await studio.core.invoke('manifest.write', {
      id: 'writer',
      source: `${read.source}# edited\n`,
      expected: read.hash,
    });
    expect(readFileSync(join(real, 'writer.yaml'), 'utf8')).toContain('# edited');
  });

  it('follows a dangling link and a missing tail to where a write would land', () => {
    const root = join(tmpdir(), `links-${process.pid}-${Date.now()}`);
    mkdirSync(join(root, 'ws'), { recursive: true });
    symlinkSync(join(root, 'elsewhere', 'file.yaml'), join(root, 'ws', 'dangling.yaml'));
    expect(realPathOf(join(root, 'ws', 'dangling.yaml'))).toBe(join(realPathOf(root), 'elsewhere', 'file.yaml'));
    expect(landsInside(join(root, 'ws'), join(root, 'ws', 'dangling.yaml'))).toBe(false);
    expect(landsInside(join(root, 'ws'), join(root, 'ws', 'new', 'deeper', 'x.yaml'))).toBe(true);
    expect(landsInside(join(root, 'ws'), join(root, 'ws-sibling', 'x.yaml'))).toBe(false);
  });
});
