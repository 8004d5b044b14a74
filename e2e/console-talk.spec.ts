import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test, type StudioFixture } from './fixtures';
import { StudioPage } from './pages/studio';

// Talking to a capsule from the console: a conversation keeps its A2A context, New conversation
// starts another, a task that asks for input is answered from the console and from the task
// inspector (the same task runs on), and a data part is refused at its field until it fits the
// capsule's input contract. Screenshots in both themes.

/** The writer asks which colour when told to paint; other messages get a draft. */
function scriptWriter(workspace: string, extra = ''): void {
  const file = join(workspace, 'capsules/writer.yaml');
  const text = readFileSync(file, 'utf8').replace(
    / {4}replies:[\s\S]*?(?=\n\nlifecycle:)/,
    [
      '    replies:',
      '      - when: paint',
      '        turns:',
      '          - tool_calls:',
      '              - name: request_input',
      '                arguments: { question: "Which colour should it be?" }',
      '          - text: "Painted it {{tool_results}}"',
      '      - turns:',
      '          - text: "Draft: {{task}}"',
    ].join('\n'),
  );
  writeFileSync(file, `${text.replace('delay_ms: 300', 'delay_ms: 50')}\n${extra}`);
}

async function launchWriter(page: Page, studio: StudioFixture, extra = ''): Promise<StudioPage> {
  scriptWriter(studio.workspace, extra);
  await studio.core.invoke('workspace.open', { dir: studio.workspace });
  const app = new StudioPage(page);
  await page.goto('/');
  await app.canvas.capsule('writer').getByRole('button', { name: 'Launch writer' }).click();
  await expect(app.stateOf('writer')).toHaveText('Idle', { timeout: 20_000 });
  await app.console.target.selectOption('writer');
  return app;
}

async function bothThemes(app: StudioPage, name: string): Promise<void> {
  for (const scheme of ['dark', 'light'] as const) {
    await app.page.emulateMedia({ colorScheme: scheme });
    await app.screenshot(`${name}-${scheme}`);
  }
}

test('a conversation keeps its context; New conversation starts another', async ({ page, studio }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const app = await launchWriter(page, studio);
  const c = app.console;
  await expect(c.context).toHaveText('new context');

  const first = await c.say('Write an opening line');
  await expect(first.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 15_000 });
  await expect(c.context).toHaveText(/^context …\w{6}$/);
  const ctx = await c.contextId();
  expect(ctx).toMatch(/^ctx_/);
  await expect(c.context.getByTitle(`A2A contextId ${ctx}`)).toHaveText(`…${ctx.slice(-6)}`);
  // Beside the conversation picker (shown from the first message on), its end is in view, not cut off.
  await expect(c.conversation).toBeVisible();
  expect(await c.context.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  const second = await c.say('Now a closing line');
  await expect(second.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 15_000 });
  await expect(second.getByLabel('Answer')).toHaveText('Draft: Now a closing line');
  await expect(c.context).toHaveAttribute('data-context-id', ctx);
  await expect(c.log.getByTestId('console-entry')).toHaveCount(2);

  // Both tasks are in that one context, as the door keeps them.
  for (const entry of [first, second]) {
    const task = await studio.core.invoke('task.get', { capsuleId: 'writer', taskId: await c.taskIdOf(entry) });
    expect(task.contextId).toBe(ctx);
  }
  await bothThemes(app, 'console-conversation');

  await c.newConversation.click();
  await expect(c.context).toHaveText('new context');
  await expect(c.entries).toHaveCount(0);
  const third = await c.say('Something else entirely');
  await expect(third.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 15_000 });
  await expect(c.context).toHaveText(/^context \S+/);
  const other = await c.contextId();
  expect(other).not.toBe(ctx);
  expect(
    (await studio.core.invoke('task.get', { capsuleId: 'writer', taskId: await c.taskIdOf(third) })).contextId,
  ).toBe(other);

  // The earlier conversation is still there and continues its own context.
  await expect(c.conversation.getByRole('option')).toHaveCount(2);
  await c.conversation.selectOption({ label: 'Write an opening line' });
  await expect(c.context).toHaveAttribute('data-context-id', ctx);
  await expect(c.entries).toHaveCount(2);
  const fourth = await c.say('One more line');
  await expect(fourth.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 15_000 });
  expect(
    (await studio.core.invoke('task.get', { capsuleId: 'writer', taskId: await c.taskIdOf(fourth) })).contextId,
  ).toBe(ctx);
});

test('a task that asks for input is answered from the console and from the inspector, and runs on', async ({
  page,
  studio,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const app = await launchWriter(page, studio);
  const c = app.console;

  const entry = await c.say('Paint the fence');
  await expect(entry.getByTestId('task-state')).toHaveText('INPUT REQUIRED', { timeout: 15_000 });
  await expect(entry.getByRole('group', { name: /^Input requested by task/ })).toContainText(
    'Which colour should it be?',
  );
  const id = await c.taskIdOf(entry);
  await bothThemes(app, 'console-input-required');
  await c.reply(entry, 'green');
  await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 15_000 });
  await expect(entry.getByLabel('Answer')).toHaveText('Painted it - request_input: green');
  await expect(entry).toContainText('you replied green');
  expect(await c.taskIdOf(entry)).toBe(id);
  const done = await studio.core.invoke('task.get', { capsuleId: 'writer', taskId: id });
  expect(done.history?.map((m) => m.parts[0].text)).toEqual(['Paint the fence', 'Which colour should it be?', 'green']);
  await expect(c.entries).toHaveCount(1);

  // From the inspector: the same question, the same reply box.
  const shed = await c.say('Paint the shed');
  await expect(shed.getByTestId('task-state')).toHaveText('INPUT REQUIRED', { timeout: 15_000 });
  const shedId = await c.taskIdOf(shed);
  await app.canvas.select('writer');
  await page.getByRole('tab', { name: 'Tasks' }).click();
  const row = page.getByRole('listitem', { name: `Task ${shedId}` });
  await expect(row.getByRole('group', { name: /^Input requested by task/ })).toContainText(
    'Which colour should it be?',
  );
  await bothThemes(app, 'inspector-input-required');
  // Opened, the task shows its question once, with its reply box (not again as the status message).
  await page.getByRole('button', { name: `Show details of task ${shedId}` }).click();
  const detail = page.getByRole('group', { name: `Details of task ${shedId}` });
  await expect(row.getByRole('group', { name: /^Input requested by task/ })).toHaveCount(1);
  await expect(detail.getByRole('group', { name: /^Input requested by task/ })).toContainText(
    'Which colour should it be?',
  );
  await expect(detail.getByRole('region', { name: 'Status', exact: true })).not.toContainText('Which colour');
  await c.reply(row, 'blue');
  await expect(row.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 15_000 });
  await expect(shed.getByTestId('task-state')).toHaveText('COMPLETED');
  await expect(shed.getByLabel('Answer')).toHaveText('Painted it - request_input: blue');
  await expect(row.getByRole('group', { name: /^Input requested by task/ })).toHaveCount(0);
});

test('a data part is refused at its field until it fits the capsule’s contract; a file goes with it', async ({
  page,
  studio,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const accepts = [
    'accepts:',
    '  type: object',
    '  properties:',
    '    priority: { type: integer, minimum: 1 }',
    '    title: { type: string }',
    '  required: [priority, title]',
    '',
  ].join('\n');
  const app = await launchWriter(page, studio, accepts);
  const c = app.console;

  await c.dataToggle.click();
  await c.data.fill('{"priority": "high"');
  await expect(c.dataProblems).toContainText('not JSON');
  await expect(c.send).toBeDisabled();
  await c.data.fill('{"priority": "high"}');
  await expect(c.dataProblems).toContainText('priority: must be integer');
  await expect(c.dataProblems).toContainText("title: must have required property 'title'");
  await expect(c.data).toHaveAttribute('aria-invalid', 'true');
  await expect(c.send).toBeDisabled();
  await c.message.fill('File this');
  await bothThemes(app, 'console-data-refused');

  // A file past the bound is refused before it is read; a small one is attached.
  await c.attach.setInputFiles({
    name: 'big.bin',
    mimeType: 'application/octet-stream',
    buffer: Buffer.alloc(800 * 1024),
  });
  await expect(c.region.getByRole('alert')).toContainText('Files up to 700 KiB in all');
  await c.attach.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('two notes\n') });
  await expect(c.attached).toContainText('notes.txt');

  await c.data.fill('{"priority": 2, "title": "Fence"}');
  await expect(c.data).toHaveAttribute('aria-invalid', 'false');
  await expect(c.dataProblems.getByRole('listitem')).toHaveCount(0);
  await expect(c.send).toBeEnabled();
  await c.send.click();
  const entry = c.entries.last();
  await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 15_000 });
  await expect(entry).toContainText('notes.txt');
  const task = await studio.core.invoke('task.get', { capsuleId: 'writer', taskId: await c.taskIdOf(entry) });
  expect(task.history?.[0].parts).toEqual([
    { text: 'File this' },
    { raw: Buffer.from('two notes\n').toString('base64'), filename: 'notes.txt', mediaType: 'text/plain' },
    { data: { priority: 2, title: 'Fence' }, mediaType: 'application/json' },
  ]);

  // Text alone is refused too (the contract asks for a data part), and the field says why.
  await c.say('No data this time');
  await expect(c.entries.last()).toContainText('Not sent: data: this capsule takes a data part');
  await expect(c.dataProblems).toContainText('this capsule takes a data part');
  await bothThemes(app, 'console-data-sent');
});

test('what is typed for one capsule stays with it while another is picked', async ({ page, studio }) => {
  const app = await launchWriter(page, studio);
  const c = app.console;
  await c.message.fill('Half a thought for the writer');
  await c.dataToggle.click();
  await c.data.fill('{"priority": 2}');
  await c.target.selectOption('coordinator');
  await expect(c.message).toHaveValue('');
  await expect(c.data).toHaveCount(0);
  await c.target.selectOption('writer');
  await expect(c.message).toHaveValue('Half a thought for the writer');
  await expect(c.data).toHaveValue('{"priority": 2}');
  // Sent, the draft is gone: coming back finds an empty box.
  await c.dataToggle.click();
  const entry = await c.say('Half a thought for the writer, finished');
  await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 15_000 });
  await c.target.selectOption('coordinator');
  await c.target.selectOption('writer');
  await expect(c.message).toHaveValue('');
});
