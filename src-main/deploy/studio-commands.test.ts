import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { validateKubeObject } from './kube-schemas.fixture';
import { createTestStudio, type TestStudio } from '../workspace/test-studio';

// "Export for Kubernetes…" through the core's contract: the preview names the ${VAR}s that need a
// Secret, the files are those of `capsule deploy kubernetes` and validate against the API
// schemas, a folder holding them is not written over unless asked, and no secret value appears.

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

const VALUE = 'sk-deploy-test-7d1e';
const usesSecret = (workspace: string) => {
  const file = join(workspace, 'capsules', 'writer.yaml');
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace(
      'description: Drafts short paragraphs.',
      'description: Drafts short paragraphs.\nartifacts:\n  - name: notes-api\n    gateway:\n      endpoint: http://127.0.0.1:9/\n      api_key: ${WRITER_KEY}',
    ),
  );
};

describe('deploy.preview and deploy.write', () => {
  it('asks for the Secret of each ${VAR}, previews valid objects and the policy of every edge, writes them, never a value', async () => {
    studio = await createTestStudio({ env: { WRITER_KEY: VALUE } });
    usesSecret(studio.workspace);
    await studio.core.invoke('workspace.open', { dir: studio.workspace });
    await studio.core.invoke('secrets.set', { name: 'WRITER_KEY', value: VALUE });
    const core = studio.core;

    const unmapped = await core.invoke('deploy.preview', {});
    expect(unmapped.vars).toEqual(['WRITER_KEY']);
    expect(unmapped.files).toEqual([]);
    expect(unmapped.problem).toMatch(/\$\{WRITER_KEY\}/);

    const options = {
      namespace: 'demo',
      image: 'registry.example.com/capsule-runtime:1.0',
      secrets: { WRITER_KEY: { secret: 'writer-keys', key: 'api-key' } },
    };
    const out = join(mkdtempSync(join(tmpdir(), 'studio-k8s-')), 'k');
    const preview = await core.invoke('deploy.preview', { ...options, dir: out });
    expect(preview.problem).toBeUndefined();
    expect(preview.existing).toEqual([]);
    for (const f of preview.files.filter((x) => x.kind !== 'Kustomization'))
      expect(() => validateKubeObject(parse(f.text)), f.name).not.toThrow();
    expect(preview.edges.map((e) => `${e.source}->${e.target} ${e.egressPolicy} ${e.ingressPolicy}`).sort()).toEqual([
      'coordinator->researcher coordinator-egress researcher-ingress',
      'coordinator->writer coordinator-egress writer-ingress',
    ]);
    const policyNames = preview.files.filter((f) => f.kind === 'NetworkPolicy').map((f) => f.objectName);
    for (const e of preview.edges)
      expect(policyNames).toEqual(expect.arrayContaining([e.egressPolicy, e.ingressPolicy]));
    expect(preview.notes.at(-1)).toBe(`apply with: kubectl apply -k ${out}`);

    const written = await core.invoke('deploy.write', { ...options, dir: out });
    expect(written.files.sort()).toEqual(readdirSync(out).sort());
    expect(written.kinds).toMatchObject({ Namespace: 1, Deployment: 3, Service: 3, ConfigMap: 3 });
    expect(written.replaced).toEqual([]);
    const texts = readdirSync(out).map((f) => readFileSync(join(out, f), 'utf8'));
    for (const t of texts) expect(t).not.toContain(VALUE);
    expect(JSON.stringify([unmapped, preview, written])).not.toContain(VALUE);
    expect(texts.join('\n')).toContain('writer-keys');

    // Writing again over the same files is asked first.
    expect((await core.invoke('deploy.preview', { ...options, dir: out })).existing).toContain('kustomization.yaml');
    await expect(core.invoke('deploy.write', { ...options, dir: out })).rejects.toMatchObject({ code: 'conflict' });
    const again = await core.invoke('deploy.write', { ...options, dir: out, overwrite: true });
    expect(again.replaced.sort()).toEqual(written.files.sort());
  });

  it('refuses a relative folder at the boundary, a file for a folder, and a folder it cannot write', async () => {
    studio = await createTestStudio();
    const core = studio.core;
    await expect(core.invoke('deploy.write', { dir: 'relative/k8s' })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(core.invoke('deploy.write', { dir: '/tmp/x', namespace: 'Not_A_Label' })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    const file = join(studio.home, 'a-file');
    writeFileSync(file, '');
    await expect(core.invoke('deploy.write', { dir: file })).rejects.toThrow(/is a file, not a folder/);
    if (process.getuid?.() !== 0) {
      const locked = mkdtempSync(join(tmpdir(), 'studio-locked-'));
      chmodSync(locked, 0o500);
      await expect(core.invoke('deploy.write', { dir: join(locked, 'k8s') })).rejects.toThrow(
        /Cannot write to .*permission denied/,
      );
      chmodSync(locked, 0o700);
    }
    // A folder the kernel refuses to create: Node's recursive mkdir would never return here.
    if (process.platform === 'linux')
      await expect(core.invoke('deploy.write', { dir: '/proc/capsule-k8s/out' })).rejects.toMatchObject({
        code: 'io_error',
      });
    // Missing parents are created.
    const nested = join(studio.home, 'a', 'b', 'k8s');
    expect((await core.invoke('deploy.write', { dir: nested })).files.length).toBeGreaterThan(0);
  });
});
