import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { expect, test } from './fixtures';
import { StudioPage } from './pages/studio';

// A formation built with the form only: from a new workspace, two capsules from the palette,
// configured field by field (no YAML typed), wired by an edge, launched, and asked a task.

test.use({ viewport: { width: 1440, height: 900 } });

test('a formation built with the manifest form alone runs and answers', async ({ page, studio }) => {
  const app = new StudioPage(page);
  const m = app.manifest;
  const dir = join(mkdtempSync(join(tmpdir(), 'studio-form-')), 'built');
  await studio.core.invoke('workspace.create', { dir });
  await page.goto('/');
  await expect(page.getByText('An empty formation')).toBeVisible();

  await app.canvas.dropFromPalette('Orchestrator', { x: 140, y: 300 });
  await expect(app.canvas.capsule('orchestrator')).toBeVisible();
  await app.canvas.dropFromPalette('Worker', { x: 700, y: 140 });
  await expect(app.canvas.capsule('worker')).toBeVisible();

  // The worker: a description, the rehearsal driver, and one scripted reply.
  await app.canvas.select('worker');
  await m.field('Description').fill('Counts invoices.');
  await m.chooseDriver('Rehearsal (offline, scripted)');
  await expect(m.field('Model')).toHaveValue('rehearsal');
  await m.addReply();
  await m.field('Reply 1 when').fill('invoice');
  await m.turnText(1, 1).fill('There are 3 invoices.');
  await m.saveNow();

  // The orchestrator: a system prompt, a turn limit, and a reply that delegates to the worker,
  // chosen from the formation's capsules. Added last, it is shadowed until moved up.
  await app.canvas.select('orchestrator');
  await m.field('System prompt').fill('You split invoice work between workers.');
  await m.field('Max turns').fill('6');
  await m.addReply();
  // The template's one reply takes any message, so a reply added after it is never reached.
  await expect(m.reply(2)).toContainText('never used');
  // Ctrl+Z outside a text field undoes the form's last edit (the added reply), not a graph edit.
  await page.keyboard.press('Control+z');
  await expect(m.reply(2)).toHaveCount(0);
  await expect(app.canvas.capsule('worker')).toBeVisible();
  await page.keyboard.press('Control+Shift+z');
  await expect(m.reply(2)).toBeVisible();
  await m.moveReplyUp(2);
  await expect(m.reply(1).getByRole('note')).toHaveCount(0);
  await m.field('Reply 1 when').fill('invoice');
  await m.turnText(1, 1).fill('');
  await m.addDelegation(1, 1, 'worker', 'How many invoices? {{task}}');
  await expect(m.delegateTo(1, 1, 1).locator('option')).toContainText(['Every reachable worker (*)', 'worker']);
  await m.addTurn(1);
  await m.turnText(1, 2).fill('Counted: {{tool_results}}');
  await m.field('Reply 1 turn 2 failed text').fill('Nobody counted: {{tool_results}}');
  await m.saveNow();

  // The allow list comes from the edge: drawn on the canvas, shown in the form as the edge's.
  await app.canvas.connect('orchestrator', 'worker');
  await expect(app.canvas.edge('orchestrator', 'worker')).toBeVisible();
  await expect(m.allowOwner(1)).toHaveText('edge to worker');
  await expect(m.allowEntry(1)).toHaveAttribute('aria-readonly', 'true');
  await expect(page.getByRole('button', { name: 'Remove allow entry 1' })).toHaveCount(0);
  // A plain address is refused at the field while it is not an allow pattern.
  await m.field('New allow entry').fill('not a pattern!');
  await expect(m.section('Network and permissions')).toContainText('Not an allow pattern');
  await expect(page.getByRole('button', { name: 'Add allow entry' })).toBeDisabled();
  await m.field('New allow entry').fill('');
  // A plain address is edited and removed in the form.
  await m.addAllowEntry('api.example.com');
  await expect(m.allowEntry(2)).toHaveValue('api.example.com');
  await expect(m.allowOwner(2)).toHaveCount(0);
  await m.allowEntry(2).fill('api.example.org');
  await expect(m.allowEntry(2)).toHaveValue('api.example.org');
  await page.getByRole('button', { name: 'Remove allow entry 2' }).click();
  await expect(m.allowEntry(2)).toHaveCount(0);
  await m.field('New shell binary').fill('git status');
  await expect(m.section('Network and permissions')).toContainText('One program name, without arguments.');
  await m.field('New shell binary').fill('git');
  await page.getByRole('button', { name: 'Add shell binary' }).click();
  await expect(m.field('Shell binary 1')).toHaveValue('git');
  await m.field('Max turns').fill('many');
  await expect(m.field('Max turns')).toHaveAttribute('aria-invalid', 'true');
  await m.field('Max turns').fill('6');
  await expect(m.field('Max turns')).not.toHaveAttribute('aria-invalid', 'true');
  await m.saveNow();
  await page.getByRole('button', { name: 'Fit view', exact: true }).click();
  await m.scrollToTop(m.section('Network and permissions'));
  await app.screenshot('builder-form-network-light');
  await m.scrollToTop(m.reply(1));
  await app.screenshot('builder-form-orchestrator-light');

  // The files hold what the form wrote, with the template's comments kept.
  const orch = readFileSync(join(dir, 'capsules', 'orchestrator.yaml'), 'utf8');
  expect(orch).toContain('# The rehearsal driver answers from the script below');
  const script = (
    parse(orch) as { inference: { rehearsal: { replies: unknown[] }; max_turns: number; system_prompt: string } }
  ).inference;
  expect(script.max_turns).toBe(6);
  expect(script.rehearsal.replies[0]).toEqual({
    when: 'invoice',
    turns: [
      { tool_calls: [{ name: 'delegate_task', arguments: { to: 'worker', text: 'How many invoices? {{task}}' } }] },
      { text: 'Counted: {{tool_results}}', failed_text: 'Nobody counted: {{tool_results}}' },
    ],
  });

  await app.launchAll.click();
  for (const name of ['orchestrator', 'worker'])
    await expect(app.stateOf(name)).toHaveText('Idle', { timeout: 20_000 });
  const done = await app.console.sendTo('orchestrator', 'the invoice count, please');
  await expect(done.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });
  await expect(done.getByLabel('Answer')).toHaveText('Counted: - worker: There are 3 invoices.');
  await expect(done.getByTestId('delegation-outcome')).toHaveText(['→ workeranswered']);

  await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
  await m.scrollToTop(m.reply(1));
  await app.screenshot('builder-form-orchestrator-dark');
  await m.scrollToTop(m.section('Network and permissions'));
  await app.screenshot('builder-form-network-dark');
  await m.scrollToTop(m.section('Skills'));
  await page.getByRole('button', { name: 'Add skill' }).click();
  await m.field('Skill 1 tags').fill('invoices, counting');
  await m.field('Input schema (accepts)').fill('{"type": "objekt"}');
  await expect(m.field('Input schema (accepts)')).toHaveAttribute('aria-invalid', 'true');
  await expect(m.section('Contracts')).toContainText('"objekt" is not a JSON Schema type');
  await app.screenshot('builder-form-skills-dark');
});

test('a driver preset writes the key as a ${VAR} reference, and one undo takes the whole choice back', async ({
  page,
  studio,
}) => {
  const app = new StudioPage(page);
  const m = app.manifest;
  await page.goto('/');
  await app.canvas.select('writer');

  await m.chooseDriver('Anthropic');
  await expect(m.field('Model')).toHaveValue('claude-sonnet-5');
  await expect(m.apiKeySecret).toHaveValue('ANTHROPIC_API_KEY');
  await expect(m.field('Endpoint')).toHaveAttribute('placeholder', /api\.anthropic\.com/);
  await expect(m.section('Rehearsal script')).toContainText('Used only with the Rehearsal driver');

  // A value that is no variable name never reaches the YAML.
  await m.apiKeySecret.fill('sk-ant-123');
  await expect(m.section('Driver and model')).toContainText('A secret name is letters, digits and _');
  await m.apiKeySecret.fill('TEAM_ANTHROPIC_KEY');
  await page.getByRole('button', { name: 'Set secret…' }).click();
  await expect(page.getByRole('dialog', { name: 'Secrets' }).getByLabel('Secret name')).toHaveValue(
    'TEAM_ANTHROPIC_KEY',
  );
  await app.screenshot('builder-form-secrets-light');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Secrets' })).toHaveCount(0);
  await m.section('Driver and model').scrollIntoViewIfNeeded();
  await app.screenshot('builder-form-driver-light');
  await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
  await app.screenshot('builder-form-driver-dark');

  await m.showYaml();
  await expect.poll(() => m.yamlText()).toMatch(/api_key: \$\{TEAM_ANTHROPIC_KEY\}/);
  expect(await m.yamlText()).not.toMatch(/sk-ant/);
  expect(await m.yamlText()).toMatch(/# pinned so the coordinator/);
  await m.showForm();

  // The key name was one step, the preset another (artifact, transport, model and key at once).
  await m.undo.click();
  await expect(m.apiKeySecret).toHaveValue('ANTHROPIC_API_KEY');
  await m.undo.click();
  await expect(m.field('Driver')).toHaveValue('capsule/driver-rehearsal');
  await expect(m.field('Model')).toHaveValue('rehearsal');
  await expect(m.status).toHaveText('Saved');
  await m.redo.click();
  await expect(m.field('Driver')).toHaveValue('murmur/driver-anthropic');
  expect(readFileSync(join(studio.workspace, 'capsules/writer.yaml'), 'utf8')).not.toContain('anthropic');
});
