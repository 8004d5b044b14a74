import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { validateKubeObject } from '../src-main/deploy/kube-schemas.fixture';
import { expect, test } from './fixtures';
import { StudioPage } from './pages/studio';
import { ExportPage } from './pages/tools';

// Export for Kubernetes from the Studio: the example workspace becomes the files
// `capsule deploy kubernetes` writes, each object valid against the Kubernetes API schemas, a
// ${VAR} read from the Secret named in the dialog and its value nowhere; a second export into the
// same folder asks before replacing them.

let out: string | undefined;
// The web shell is shared by the specs a worker runs: the secret set here must not reach the
// next spec (the YAML editor's spec expects WRITER_KEY unset).
test.afterEach(async ({ studio }) => {
  if (out) rmSync(out, { recursive: true, force: true });
  await studio.core.invoke('secrets.delete', { name: 'WRITER_KEY' });
});

const VALUE = `sk-export-${Date.now().toString(36)}-51c9`;

test('export the example formation for Kubernetes, check the files, and replace them only when asked', async ({
  page,
  studio,
}) => {
  // The writer reads a key through ${WRITER_KEY}, whose value the Studio's secret store holds.
  const writer = join(studio.workspace, 'capsules', 'writer.yaml');
  writeFileSync(
    writer,
    readFileSync(writer, 'utf8').replace(
      'description: Drafts short paragraphs.',
      'description: Drafts short paragraphs.\nartifacts:\n  - name: notes-api\n    gateway:\n      endpoint: http://127.0.0.1:9/\n      api_key: ${WRITER_KEY}',
    ),
  );
  await studio.core.invoke('secrets.set', { name: 'WRITER_KEY', value: VALUE });
  await page.setViewportSize({ width: 1440, height: 900 });
  const app = new StudioPage(page);
  const dialog = new ExportPage(page);
  await page.goto('/');
  await expect(app.canvas.capsule('coordinator')).toBeVisible();

  // The palette finds it too.
  await app.palette.open();
  await app.palette.run('Export for Kub', 'Export for Kubernetes…');
  await expect(dialog.dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog.dialog).toBeHidden();

  await page.getByRole('button', { name: 'Tools' }).click();
  await expect(page.getByRole('menu', { name: 'Tools' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/studio-tools-menu.png' });
  await page.keyboard.press('Escape');
  await dialog.openFromMenu();
  // Each ${VAR} gets a Secret name and key to read it from, pre-filled and editable.
  await expect(dialog.dialog.getByRole('textbox', { name: 'Secret for WRITER_KEY' })).toHaveValue('capsule-secrets');
  await dialog.dialog.getByRole('textbox', { name: 'Secret for WRITER_KEY' }).fill('writer-keys');
  await dialog.dialog.getByRole('textbox', { name: 'Key for WRITER_KEY' }).fill('notes-api');
  out = join(mkdtempSync(join(tmpdir(), 'e2e-k8s-')), 'kubernetes');
  await dialog.namespace.fill('demo');
  await dialog.image.fill('registry.example.com/capsule-runtime:1.0');
  await dialog.host.fill('agents.example.com');
  await dialog.folder.fill('relative/path');
  await expect(dialog.dialog.getByRole('alert')).toContainText('absolute folder path');
  await dialog.folder.fill(out);
  await expect(dialog.file('deployment-coordinator.yaml')).toBeVisible();
  await expect(dialog.edges.getByRole('row', { name: /coordinator → researcher/ })).toContainText('researcher-ingress');
  await expect(dialog.edges.getByRole('row', { name: /coordinator → writer/ })).toContainText('coordinator-egress');
  await dialog.file('networkpolicy-researcher-ingress.yaml').click();
  await expect(dialog.preview('networkpolicy-researcher-ingress.yaml')).toContainText('kind: NetworkPolicy');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `test-results/screenshots/studio-tools-export-${scheme}.png` });
  }

  await dialog.export.click();
  await expect(dialog.written).toContainText(`to ${out}`);
  await expect(dialog.written).toContainText('kubectl apply -k');
  const files = readdirSync(out).sort();
  expect(files).toContain('kustomization.yaml');
  const kustomization = parse(readFileSync(join(out, 'kustomization.yaml'), 'utf8'));
  expect([...kustomization.resources, 'kustomization.yaml'].sort()).toEqual(files);
  const kinds = new Set<string>();
  for (const f of kustomization.resources as string[]) {
    const obj = parse(readFileSync(join(out, f), 'utf8'));
    expect(() => validateKubeObject(obj), f).not.toThrow();
    expect(obj.metadata.namespace ?? obj.metadata.name).toBe('demo');
    kinds.add(obj.kind);
  }
  expect([...kinds].sort()).toEqual(['ConfigMap', 'Deployment', 'Namespace', 'NetworkPolicy', 'Service']);
  const container = parse(readFileSync(join(out, 'deployment-writer.yaml'), 'utf8')).spec.template.spec.containers[0];
  expect(container.env).toContainEqual({
    name: 'WRITER_KEY',
    valueFrom: { secretKeyRef: { name: 'writer-keys', key: 'notes-api' } },
  });
  for (const f of files) expect(readFileSync(join(out, f), 'utf8')).not.toContain(VALUE);
  expect(await page.content()).not.toContain(VALUE);
  // The preview now sees the files there; a success says what it wrote, and does not turn that
  // into a caution about files "already" there.
  await expect(dialog.files.getByText('written', { exact: true })).toHaveCount(files.length);
  await expect(dialog.files.getByText('exists', { exact: true })).toHaveCount(0);
  await expect(dialog.dialog.getByText(/already (exist|in this folder)/)).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screenshots/studio-tools-export-written.png' });

  // Again into the same folder: asked first, kept when the user says so, replaced when asked.
  await dialog.export.click();
  await expect(dialog.confirm).toContainText('Replace them?');
  // The first export's report is gone once the second starts: only the question stands.
  await expect(dialog.written).toHaveCount(0);
  await expect(dialog.dialog.getByText(/already in this folder/)).toHaveCount(0);
  await dialog.confirm.getByRole('button', { name: 'Keep them' }).click();
  await expect(dialog.confirm).toBeHidden();
  await dialog.export.click();
  await dialog.confirm.getByRole('button', { name: 'Replace files' }).click();
  await page.screenshot({ path: test.info().outputPath('export-replaced.png') });
  await expect(dialog.written).toContainText(`(${files.length} replaced)`);
  await expect(dialog.dialog.getByText(/already (exist|in this folder)/)).toHaveCount(0);

  // Opened again on that folder, the files there are told as plain information before Export.
  await dialog.dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await dialog.openFromMenu();
  await dialog.folder.fill(out);
  // (All but the namespace's file: the dialog starts on the default namespace again.)
  await expect(
    dialog.dialog.getByText(
      `${files.length - 1} files of this export are already in this folder; Export asks before replacing them.`,
    ),
  ).toBeVisible();
  await expect(dialog.written).toHaveCount(0);
});
