import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { validateKubeObject } from '../src-main/deploy/kube-schemas.fixture';
import { expect, test } from './fixtures';
import { StudioPage } from './pages/studio';
import { ExportPage } from './pages/tools';

// Export for Kubernetes from the Studio: the example workspace becomes the files
// `capsule deploy kubernetes` writes, each object valid against the Kubernetes API schemas; a
// second export into the same folder asks before replacing them.

let out: string | undefined;
test.afterEach(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

test('export the example formation for Kubernetes, check the files, and replace them only when asked', async ({ page, studio }) => {
  void studio;
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

  await dialog.openFromMenu();
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
    await page.screenshot({ path: `/tmp/studio-tools-export-${scheme}.png` });
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
  await page.screenshot({ path: '/tmp/studio-tools-export-written.png' });

  // Again into the same folder: asked first, kept when the user says so, replaced when asked.
  await dialog.export.click();
  await expect(dialog.confirm).toContainText('Replace them?');
  await dialog.confirm.getByRole('button', { name: 'Keep them' }).click();
  await expect(dialog.confirm).toBeHidden();
  await dialog.export.click();
  await dialog.confirm.getByRole('button', { name: 'Replace files' }).click();
  await expect(dialog.written).toContainText(`(${files.length} replaced)`);
});
