import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { StudioPage } from './pages/studio';

// The task inspector: cancel a running task (it really stops: CANCELED in the UI and in the
// trace), then stop the session and read what it canceled and left running.

test('cancel a running task from the inspector, then stop the session', async ({ page, studio }) => {
  // The writer's scripted turn hangs until canceled.
  const file = join(studio.workspace, 'capsules/writer.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/- text: "Draft:[^"]*"/, '- hang: true'));
  await studio.core.invoke('workspace.open', { dir: studio.workspace });

  const app = new StudioPage(page);
  await page.goto('/');
  await app.canvas.capsule('writer').getByRole('button', { name: 'Launch writer' }).click();
  await expect(app.stateOf('writer')).toHaveText('Idle', { timeout: 20_000 });

  const entry = await app.console.sendTo('writer', 'Draft something slowly');
  await expect(entry.getByTestId('task-state')).toHaveText('WORKING', { timeout: 15_000 });
  await expect(app.stateOf('writer')).toHaveText('Busy');

  await app.canvas.select('writer');
  await page.getByRole('tab', { name: 'Tasks' }).click();
  const row = page.getByRole('list', { name: 'Tasks' }).getByRole('listitem').first();
  await expect(row.getByTestId('task-state')).toHaveText('WORKING');
  await row.getByRole('button', { name: /^Cancel task/ }).click();

  await expect(row.getByTestId('task-state')).toHaveText('CANCELED');
  await expect(row.getByRole('status')).toContainText('CANCELED');
  await expect(entry.getByTestId('task-state')).toHaveText('CANCELED');
  await page.getByRole('tab', { name: 'Live trace' }).click();
  await expect(
    page.getByRole('table', { name: 'Live trace' }).getByText('task_canceled', { exact: true }),
  ).toBeVisible();
  await app.screenshot('inspector-trace-canceled');

  // A finished task offers no Cancel any more, but what applies to it.
  await page.getByRole('tab', { name: 'Tasks' }).click();
  await expect(row.getByRole('button', { name: /^Cancel task/ })).toHaveCount(0);
  await expect(row.getByRole('button', { name: /^Fork task/ })).toBeVisible();
  await app.screenshot('inspector-tasks');

  // Cancel all tasks cancels what the session holds and keeps the session: the capsule stays Idle.
  const second = await app.console.sendTo('writer', 'Another slow draft');
  await expect(second.getByTestId('task-state')).toHaveText('WORKING', { timeout: 15_000 });
  const secondId = await app.console.taskIdOf(second);
  await page.getByRole('button', { name: 'Cancel all tasks' }).click();
  const kept = page.getByRole('status', { name: 'Cancel all tasks result' });
  await expect(kept).toContainText('1 task canceled');
  await expect(kept).toContainText(secondId);
  await expect(second.getByTestId('task-state')).toHaveText('CANCELED');
  await expect(app.stateOf('writer')).toHaveText('Idle');

  // Stop session ends the session: its task canceled, session_end written, door closed, node Stopped.
  const { url, sessionId } = await studio.core
    .invoke('capsule.launch', { id: 'writer' })
    .then((c) => ({ url: c.url!, sessionId: c.sessionId! }));
  const third = await app.console.sendTo('writer', 'A third slow draft');
  await expect(third.getByTestId('task-state')).toHaveText('WORKING', { timeout: 15_000 });
  await page.getByRole('button', { name: 'Stop session' }).click();
  // A task is running: the Studio says so and asks first.
  const confirm = page.getByRole('dialog', { name: 'Stop writer?' });
  await expect(confirm).toContainText('1 task is still running in writer');
  await confirm.getByRole('button', { name: 'Stop session' }).click();
  const result = page.getByRole('status', { name: 'Stop session result' });
  await expect(result).toContainText('1 task canceled');
  await expect(result).toContainText('Nothing was left running');
  await expect(result).toContainText('The session has ended');
  await expect(third.getByTestId('task-state')).toHaveText('CANCELED');
  await expect(app.stateOf('writer')).toHaveText('Stopped');
  const trace = await studio.core.invoke('trace.tail', { sessionId, last: 5 });
  expect(trace.events.map((e) => e.event_type)).toContain('session_end');
  await expect(fetch(url, { method: 'POST' })).rejects.toThrow();
  await app.screenshot('inspector-stop-session');
});

test('stop session shows what the tasks left behind: a delegation ended, a detached shell command', async ({
  page,
  studio,
}) => {
  // The writer starts a detached `sleep` and then hangs; the coordinator delegates to it and waits.
  const writer = join(studio.workspace, 'capsules/writer.yaml');
  writeFileSync(
    writer,
    readFileSync(writer, 'utf8').replace(
      / {4}replies:[\s\S]*?(?=\n\nlifecycle:)/,
      [
        '    replies:',
        '      - turns:',
        '          - tool_calls:',
        '              - name: shell',
        '                arguments: { command: "sleep 30", detach: true }',
        '          - hang: true',
      ].join('\n'),
    ) + '\ncapabilities:\n  shell:\n    allow: [sleep]\n',
  );
  const coordinator = join(studio.workspace, 'capsules/coordinator.yaml');
  writeFileSync(
    coordinator,
    readFileSync(coordinator, 'utf8').replace(
      / {14}- name: delegate_task\n {16}arguments:\n {18}to: researcher\n {18}text: "[^"]*"\n/,
      '',
    ),
  );
  await studio.core.invoke('workspace.open', { dir: studio.workspace });

  const app = new StudioPage(page);
  await page.goto('/');
  await app.launchAll.click();
  await expect(app.stateOf('coordinator')).toHaveText('Idle', { timeout: 20_000 });
  await expect(app.stateOf('writer')).toHaveText('Idle', { timeout: 20_000 });
  const entry = await app.console.sendTo('coordinator', 'Plan the report');
  await expect(entry.getByTestId('task-state')).toHaveText('WORKING', { timeout: 15_000 });
  await expect(app.stateOf('writer')).toHaveText('Busy', { timeout: 15_000 });

  // Stopping the coordinator ends its delegation (the writer's task is canceled through its door).
  await app.canvas.select('coordinator');
  await page.getByRole('tab', { name: 'Tasks' }).click();
  await page.getByRole('button', { name: 'Stop session' }).click();
  await page.getByRole('dialog', { name: 'Stop coordinator?' }).getByRole('button', { name: 'Stop session' }).click();
  const stopped = page.getByRole('status', { name: 'Stop session result' });
  await expect(stopped).toContainText('1 task canceled');
  await expect(stopped.getByRole('list', { name: 'Ended' })).toContainText('delegation to writer@0.1.0');
  await expect(stopped.getByRole('list', { name: 'Left running' })).toHaveCount(0);
  await expect(app.stateOf('coordinator')).toHaveText('Stopped');
  await app.screenshot('inspector-stop-delegation');

  // The writer's canceled task left its detached shell command running; stopping the writer ends it.
  await app.canvas.select('writer');
  await page.getByRole('tab', { name: 'Tasks' }).click();
  const row = page.getByRole('list', { name: 'Tasks' }).getByRole('listitem').first();
  await expect(row.getByTestId('task-state')).toHaveText('CANCELED');
  await page.getByRole('button', { name: 'Stop session' }).click();
  const writerStop = page.getByRole('status', { name: 'Stop session result' });
  await expect(writerStop).toContainText('0 tasks canceled');
  await expect(writerStop.getByRole('list', { name: 'Ended' })).toContainText(
    'shell sleep 30 (sleep), stopped with the session',
  );
  await expect(app.stateOf('writer')).toHaveText('Stopped');
  await app.screenshot('inspector-stop-shell');
});
