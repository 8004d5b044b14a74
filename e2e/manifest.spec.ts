import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { readManifest } from './helpers/workspace';
import { StudioPage } from './pages/studio';

// The manifest panel: form and YAML over one draft; mistakes show at their field or line.

test('a YAML mistake shows its error at its line, and Save brings the core check', async ({ page, studio }) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await app.canvas.select('writer');
  await app.manifest.showYaml();
  await expect.poll(() => app.manifest.yamlText()).toMatch(/name: writer/);

  // A syntax mistake on line 3 (an unclosed flow sequence), shown as the user types.
  const original = await app.manifest.yamlText();
  const lines = original.split('\n');
  const versionLine = lines.findIndex((l) => l.startsWith('version:')) + 1;
  lines[versionLine - 1] = 'version: [0.1.0';
  await app.manifest.setYaml(lines.join('\n'));
  await expect(app.manifest.problems).toContainText('YAML syntax');
  await expect(page.locator('.yaml-editor .cm-lint-marker-error').first()).toBeVisible();

  // A schema mistake: a wrong type on a known line, saved to disk; the core reports it at that line.
  lines[versionLine - 1] = 'version: "0.1.0"';
  const text = lines
    .join('\n')
    .replace(/queue_depth: \d+|lifecycle:\n/, (m) =>
      m.startsWith('lifecycle') ? 'lifecycle:\n  queue_depth: lots\n' : 'queue_depth: lots',
    );
  const depthLine = text.split('\n').findIndex((l) => l.includes('queue_depth: lots')) + 1;
  await app.manifest.setYaml(text);
  await expect(app.manifest.problemAtLine(depthLine)).toContainText('lifecycle.queue_depth');
  await app.manifest.save.click();
  await expect(app.manifest.status).toHaveText('Saved');
  await expect(app.manifest.problemAtLine(depthLine)).toBeVisible();
  expect(readFileSync(join(studio.workspace, 'capsules/writer.yaml'), 'utf8')).toContain('queue_depth: lots');
  // The node carries the problem in red too.
  await expect(app.canvas.capsule('writer').getByRole('list', { name: 'Manifest problems in writer' })).toContainText(
    'queue_depth',
  );
});

test('the form edits the YAML and keeps its comments', async ({ page, studio }) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await app.canvas.select('writer');
  await app.manifest.field('Max turns').fill('4');
  await app.manifest.field('Model').fill('rehearsal-two');
  await app.manifest.save.click();
  await expect(app.manifest.status).toHaveText('Saved');
  const text = readFileSync(join(studio.workspace, 'capsules/writer.yaml'), 'utf8');
  expect(text).toContain('# pinned so the coordinator');
  expect(readManifest(studio.workspace, 'capsules/writer.yaml')).toMatchObject({
    inference: { max_turns: 4, model: 'rehearsal-two' },
  });

  // A wrong value shows at its field.
  await app.manifest.field('Queue depth').fill('many');
  await expect(app.manifest.field('Queue depth')).toHaveAttribute('aria-invalid', 'true');
});

test('the form edits the output contract as JSON and saves it as YAML', async ({ page, studio }) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await app.canvas.select('writer');
  const schema = app.manifest.field('Response schema (JSON Schema)');
  await schema.fill('{"type": "object", "properties": {"summary"');
  await expect(page.getByText('Not JSON yet')).toBeVisible();
  await expect(schema).toHaveAttribute('aria-invalid', 'true');
  await schema.fill('{"type": "object", "properties": {"summary": {"type": "string"}}, "required": ["summary"]}');
  await expect(page.getByText('Not JSON yet')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('responds-form.png') });
  await app.manifest.save.click();
  await expect(app.manifest.status).toHaveText('Saved');
  expect(readManifest(studio.workspace, 'capsules/writer.yaml').responds).toEqual({
    type: 'object',
    properties: { summary: { type: 'string' } },
    required: ['summary'],
  });
  await app.manifest.showYaml();
  await expect.poll(() => app.manifest.yamlText()).toMatch(/responds:\n {2}type: object/);
});

test('a change on disk during an edit is a conflict with a choice, never lost', async ({ page, studio }) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await app.canvas.select('writer');
  await app.manifest.field('Description').fill('Mine: drafts paragraphs.');
  await expect(app.manifest.status).toHaveText('Unsaved changes');

  const file = join(studio.workspace, 'capsules/writer.yaml');
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace('Drafts short paragraphs.', 'Theirs: edited in another editor.'),
  );

  await expect(page.getByRole('alert').filter({ hasText: 'The file changed on disk' })).toBeVisible({
    timeout: 15_000,
  });
  await expect(app.manifest.field('Description')).toHaveValue('Mine: drafts paragraphs.');
  await page.getByRole('button', { name: 'Overwrite with my edits' }).click();
  await expect(app.manifest.status).toHaveText('Saved');
  expect(readFileSync(file, 'utf8')).toContain('Mine: drafts paragraphs.');
});

test('a broken manifest in the workspace shows its error on its node', async ({ page, studio }) => {
  const file = join(studio.workspace, 'capsules/researcher.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/^version:.*$/m, 'version: [oops'));
  await studio.core.invoke('workspace.open', { dir: studio.workspace });
  const app = new StudioPage(page);
  await page.goto('/');
  const node = app.canvas.capsule('researcher');
  await expect(node).toBeVisible();
  await expect(node.getByRole('list', { name: /Manifest problems/ })).toBeVisible();
  await expect(node.getByRole('button', { name: 'Launch researcher' })).toBeDisabled();
  // The rest of the formation still works.
  await expect(app.canvas.capsule('writer')).toBeVisible();
  await expect(app.canvas.capsule('coordinator')).toBeVisible();
});
