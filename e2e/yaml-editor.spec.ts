import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { StudioPage } from './pages/studio';

// The YAML view is a code editor: diagnostics at their line as you type, completion and hover docs
// from the manifest schema, search, an undo of its own, and the text kept exactly as written.

async function openYaml(app: StudioPage, capsule = 'writer'): Promise<void> {
  await app.page.goto('/');
  await app.canvas.select(capsule);
  await app.manifest.showYaml();
  await expect.poll(() => app.manifest.yamlText()).toMatch(/name: writer/);
}

/** The 1-based line number of the line that holds a diagnostic mark. */
const lineOf = (mark: Element) => {
  const line = mark.closest('.cm-line');
  return line
    ? Array.from(line.parentElement!.children)
        .filter((c) => c.classList.contains('cm-line'))
        .indexOf(line) + 1
    : -1;
};

test('typing a bad value shows the diagnostic at its line and column', async ({ page, studio }) => {
  void studio; // the fixture opened this test's own workspace
  const app = new StudioPage(page);
  await openYaml(app);
  const lines = (await app.manifest.yamlText()).split('\n');
  const line = lines.findIndex((l) => l.includes('after_task: sleep')) + 1;

  await app.manifest.caretAfter('after_task: sleep');
  for (let i = 0; i < 'sleep'.length; i++) await page.keyboard.press('Backspace');
  await app.manifest.typeYaml('nap');
  await expect(app.manifest.diagnostics).toHaveCount(1);
  await expect(app.manifest.diagnostics).toHaveText('nap');
  expect(await app.manifest.diagnostics.evaluate(lineOf)).toBe(line);
  await expect(app.manifest.problemAtLine(line)).toContainText('lifecycle.after_task');
  await expect(app.manifest.problemAtLine(line)).toContainText('allowed values: sleep, exit');

  // Its message is at the mark.
  await app.manifest.diagnostics.hover();
  await expect(page.locator('.cm-tooltip-lint')).toContainText('not an allowed value');

  // A click on the problem puts the caret on it, even from the form.
  await app.manifest.showForm();
  await app.manifest.problemAtLine(line).click();
  await expect(app.manifest.yaml).toBeFocused();
  await expect(page.locator('.yaml-editor .cm-activeLineGutter').first()).toHaveText(String(line));
  await app.manifest.caretAfter('after_task: nap');

  // Fixing it clears it, still without Save.
  for (let i = 0; i < 'nap'.length; i++) await page.keyboard.press('Backspace');
  await app.manifest.typeYaml('exit');
  await expect(app.manifest.diagnostics).toHaveCount(0);
  await expect(app.manifest.problems).toHaveCount(0);
});

test('completion offers the schema keys and values where the caret is', async ({ page, studio }) => {
  void studio; // the fixture opened this test's own workspace
  const app = new StudioPage(page);
  await openYaml(app);
  await app.manifest.caretAfter('after_task: sleep');
  await page.keyboard.press('Enter');
  await app.manifest.typeYaml('queue_d');
  const option = page.getByRole('option', { name: /queue_depth/ });
  await expect(option).toBeVisible();
  // Keys of other maps are not offered here.
  await expect(page.getByRole('option', { name: /max_turns/ })).toHaveCount(0);
  // CodeMirror takes an option on mousedown; dispatched, it reaches a popup drawn past the viewport's edge too.
  await option.dispatchEvent('mousedown');
  await app.manifest.typeYaml('4');
  await expect.poll(() => app.manifest.yamlText()).toContain('  after_task: sleep\n  queue_depth: 4\n');

  // Values: the enum of the field, on demand (Ctrl+Space).
  await app.manifest.caretAfter('task_acceptance: queue');
  for (let i = 0; i < 'queue'.length; i++) await page.keyboard.press('Backspace');
  await page.keyboard.press('Control+Space');
  await expect(page.getByRole('option', { name: 'single' })).toBeVisible();
  await expect(page.getByRole('option', { name: 'none' })).toBeVisible();
  await page.getByRole('option', { name: 'single' }).click();
  await expect.poll(() => app.manifest.yamlText()).toContain('task_acceptance: single\n');
  await expect(app.manifest.diagnostics).toHaveCount(0);
});

test('hovering a key shows what it means', async ({ page, studio }) => {
  void studio; // the fixture opened this test's own workspace
  const app = new StudioPage(page);
  await openYaml(app);
  await page.locator('.yaml-editor .cm-content span', { hasText: /^task_acceptance$/ }).hover();
  const tip = page.getByRole('tooltip').filter({ hasText: 'lifecycle.task_acceptance' });
  await expect(tip).toBeVisible();
  await expect(tip).toContainText('queue (default: tasks wait their turn)');
  await expect(tip).toContainText('values: queue, single, none');
});

test('Ctrl+F opens the search inside the editor', async ({ page, studio }) => {
  void studio; // the fixture opened this test's own workspace
  const app = new StudioPage(page);
  await openYaml(app);
  await app.manifest.yaml.click();
  await page.keyboard.press('Control+f');
  const find = page.getByRole('textbox', { name: 'Find' });
  await expect(find).toBeFocused();
  await find.fill('sleep');
  await page.keyboard.press('Enter');
  await expect(page.locator('.yaml-editor .cm-searchMatch').first()).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(find).toHaveCount(0);
});

test("Ctrl+Z in the editor undoes the editor's edit only, and the Studio's undo works outside it", async ({
  page,
  studio,
}) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await expect(app.canvas.capsule('coordinator')).toBeVisible();
  await app.canvas.deleteEdge('coordinator', 'writer');
  await expect(app.canvas.edges()).toHaveCount(1);

  await app.canvas.select('writer');
  await app.manifest.showYaml();
  await expect.poll(() => app.manifest.yamlText()).toMatch(/accept: false|peer_tasks/);
  const before = await app.manifest.yamlText();
  await app.manifest.caretAfter('description: Drafts short paragraphs.');
  await app.manifest.typeYaml(' Mine.');
  await expect.poll(() => app.manifest.yamlText()).toContain('Drafts short paragraphs. Mine.');
  await expect(app.manifest.status).toHaveText('Unsaved changes');

  // The typing went to the store and came back: the editor's history still holds it.
  await page.keyboard.press('Control+z');
  await expect.poll(() => app.manifest.yamlText()).toBe(before);
  await expect(app.manifest.status).toHaveText('Saved');
  // A second Ctrl+Z in the editor has nothing left to undo; the graph edit stays.
  await page.keyboard.press('Control+z');
  await expect(app.canvas.edges()).toHaveCount(1);
  expect(await app.manifest.yamlText()).toBe(before);
  await page.keyboard.press('Control+Shift+z');
  await expect.poll(() => app.manifest.yamlText()).toContain('Drafts short paragraphs. Mine.');
  await page.keyboard.press('Control+z');
  await expect.poll(() => app.manifest.yamlText()).toBe(before);

  // Outside the editor, Ctrl+Z is the Studio's: the edge comes back, and the editor shows the file it rewrote.
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+z');
  await expect(app.canvas.edges()).toHaveCount(2);
  await expect.poll(async () => (await studio.core.invoke('formation.get', {})).edges.length).toBe(2);
});

test('one undo history for the form and the editor: each Ctrl+Z takes back the latest edit, whichever editor made it', async ({
  page,
  studio,
}) => {
  void studio;
  const app = new StudioPage(page);
  const m = app.manifest;
  await page.goto('/');
  await app.canvas.select('writer');
  // A form edit, then typing in the YAML.
  await m.field('Description').fill('Drafts paragraphs.');
  await m.showYaml();
  await expect.poll(() => m.yamlText()).toContain('description: Drafts paragraphs.');
  const afterForm = await m.yamlText();
  await m.caretAfter('description: Drafts paragraphs.');
  await m.typeYaml(' Mine.');
  await expect.poll(() => m.yamlText()).toContain('Drafts paragraphs. Mine.');

  // In the editor: the typing first, then the form's edit, one step each.
  await page.keyboard.press('Control+z');
  await expect.poll(() => m.yamlText()).toBe(afterForm);
  await page.keyboard.press('Control+z');
  await expect.poll(() => m.yamlText()).toContain('description: Drafts short paragraphs.');
  await expect(m.status).toHaveText('Saved');
  await page.keyboard.press('Control+Shift+z');
  await expect.poll(() => m.yamlText()).toBe(afterForm);

  // In the form, the same history: its Undo takes back the description, its Redo brings back both.
  await m.showForm();
  await expect(m.field('Description')).toHaveValue('Drafts paragraphs.');
  await m.undo.click();
  await expect(m.field('Description')).toHaveValue('Drafts short paragraphs.');
  await m.redo.click();
  await m.redo.click();
  await expect(m.field('Description')).toHaveValue('Drafts paragraphs. Mine.');
  await expect(m.redo).toBeDisabled();
});

test('a comment and a ${VAR} survive a form edit round trip, and the core judges the reference', async ({
  page,
  studio,
}) => {
  const app = new StudioPage(page);
  await openYaml(app);
  const original = await app.manifest.yamlText();
  const added =
    'artifacts:\n  - name: murmur/driver-anthropic\n    gateway:\n      api_key: "${WRITER_KEY}"  # the key stays a reference\n';
  const typed = `${original.trimEnd()}\n\n${added}`;
  await app.manifest.setYaml(typed);
  // The editor leaves ${VAR} values to the core (only it knows the environment).
  await expect(app.manifest.problems).toHaveCount(0);
  // Ctrl+S in the editor saves the text byte for byte: comments, their spacing, the reference.
  await page.keyboard.press('Control+s');
  await expect(app.manifest.status).toHaveText('Saved');
  expect(readFileSync(join(studio.workspace, 'capsules/writer.yaml'), 'utf8')).toBe(typed);

  await app.manifest.showForm();
  await app.manifest.field('Description').fill('Drafts long paragraphs.');
  await app.manifest.showYaml();
  const text = await app.manifest.yamlText();
  expect(text).toContain('description: Drafts long paragraphs.');
  // The reference stays as written, and every comment stays (the form's YAML writer may still
  // normalise the spaces before an inline comment).
  expect(text).toMatch(/ {6}api_key: "\$\{WRITER_KEY\}" +# the key stays a reference\n/);
  expect(text).toMatch(/internal_port: \d+ +# pinned so the coordinator's allow entry stays valid/);
  expect(text).toContain('# A worker: drafts text for the coordinator.\n');

  await app.manifest.save.click();
  await expect(app.manifest.status).toHaveText('Saved');
  const onDisk = readFileSync(join(studio.workspace, 'capsules/writer.yaml'), 'utf8');
  expect(onDisk).toBe(text);
  // Saved, the core's check is the authority: the unset variable shows inline at the reference.
  const keyLine = text.split('\n').findIndex((l) => l.includes('${WRITER_KEY}')) + 1;
  await expect(app.manifest.problemAtLine(keyLine)).toContainText('environment variable WRITER_KEY is not set');
  await expect(app.manifest.diagnostics).toHaveText('${WRITER_KEY}');
});

for (const scheme of ['light', 'dark'] as const) {
  test(`the YAML editor in the ${scheme} theme`, async ({ page, studio }) => {
    void studio; // the fixture opened this test's own workspace
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: scheme });
    // The editor loads as its own chunk and styles itself: the page's CSP must refuse none of it.
    const refused: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
    });
    const app = new StudioPage(page);
    await openYaml(app);
    await app.manifest.caretAfter('after_task: sleep');
    for (let i = 0; i < 'sleep'.length; i++) await page.keyboard.press('Backspace');
    await app.manifest.typeYaml('nap');
    await expect(app.manifest.diagnostics).toHaveCount(1);
    await app.manifest.diagnostics.hover();
    await expect(page.locator('.cm-tooltip-lint')).toBeVisible();
    await app.screenshot(`yaml-editor-diagnostic-${scheme}`);
    await page.mouse.move(0, 0);

    await app.manifest.caretAfter('task_acceptance: queue');
    await page.keyboard.press('Enter');
    await app.manifest.typeYaml('q');
    await expect(page.getByRole('option', { name: /queue_depth/ })).toBeVisible();
    await app.screenshot(`yaml-editor-completion-${scheme}`);
    await page.keyboard.press('Escape');

    await page.locator('.yaml-editor .cm-content span', { hasText: /^artifact$/ }).hover();
    await expect(page.getByRole('tooltip').filter({ hasText: 'inference.driver.artifact' })).toBeVisible();
    await app.screenshot(`yaml-editor-hover-${scheme}`);
    await page.mouse.move(0, 0);

    await app.manifest.caretAfter('name: writer');
    await page.keyboard.press('Control+f');
    await page.getByRole('textbox', { name: 'Find' }).fill('rehearsal');
    await page.keyboard.press('Enter');
    await app.screenshot(`yaml-editor-search-${scheme}`);
    expect(refused).toEqual([]);
  });
}
