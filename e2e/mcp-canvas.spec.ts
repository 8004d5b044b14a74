import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from './fixtures';
import { StudioPage } from './pages/studio';

// Tool servers (MCP) on the canvas: a node added from the palette, an edge capsule -> server that
// IS the capsule's manifest entry, a task whose rehearsal calls the tool (seen on the node and in
// the trace), a tool unticked on the edge, the edge deleted (the manifest back byte for byte), undone.

const FS_SERVER = resolve(__dirname, '../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

/** The writer's rehearsal calls the file server's list_directory, then answers with what it got. */
function scriptWriter(workspace: string): string {
  const file = join(workspace, 'capsules/writer.yaml');
  const text = readFileSync(file, 'utf8').replace(
    '          - text: "Draft: a short, clear paragraph that answers the request."',
    '          - tool_calls:\n              - name: files__list_directory\n                arguments: { path: . }\n          - text: "Listed: {{tool_results}}"',
  );
  writeFileSync(file, text);
  return text;
}

for (const scheme of ['light', 'dark'] as const) {
  test(`a tool server node, its edge as the manifest entry, a call through it, untick, delete, undo (${scheme})`, async ({
    page,
    studio,
  }) => {
    test.setTimeout(90_000);
    await page.emulateMedia({ colorScheme: scheme });
    const writerFile = join(studio.workspace, 'capsules/writer.yaml');
    const before = scriptWriter(studio.workspace);
    const app = new StudioPage(page);
    await page.goto('/');
    await expect(app.canvas.capsule('writer')).toBeVisible();

    // Add the server from the palette: a local process, the reference file server from node_modules.
    await app.canvas.dropFromPalette('Tool server (MCP)', { x: 620, y: 520 });
    const dialog = page.getByRole('dialog', { name: 'Add a tool server (MCP)' });
    await dialog.getByLabel('Name', { exact: true }).fill('files');
    await dialog.getByLabel('Command', { exact: true }).fill('node');
    await dialog.getByLabel('Arguments (one a line)').fill(`${FS_SERVER}\n.`);
    await dialog.getByRole('button', { name: 'Add tool server' }).click();
    const node = page.getByRole('group', { name: 'Tool server files', exact: true });
    await expect(node).toBeVisible();
    // Its tools, from tools/list, with descriptions.
    const tools = node.getByRole('list', { name: 'Tools of files' });
    await expect(tools.getByText('list_directory', { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(tools.getByText('read_text_file', { exact: true })).toBeVisible();
    expect(readFileSync(join(studio.workspace, 'formation.yaml'), 'utf8')).toContain('tool_servers:\n  - id: files');

    // The edge writer -> files is the permission: the entry in writer's manifest.
    await app.canvas.connect('writer', 'mcp:files', 'tools');
    await expect(app.canvas.edge('writer', 'mcp:files')).toBeVisible();
    await expect
      .poll(() => readFileSync(writerFile, 'utf8'))
      .toContain('  mcp:\n    servers:\n      - name: files\n        command: node');
    expect(readFileSync(writerFile, 'utf8')).toContain('cwd: ..');

    // A task: the rehearsal calls files__list_directory through the server.
    await studio.core.invoke('capsule.launch', { id: 'writer' });
    const task = await studio.core.invoke('task.send', { capsuleId: 'writer', text: 'what is in the folder?' });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const calls = node.getByRole('list', { name: 'Calls through files' });
    await expect(calls.getByText('list_directory')).toBeVisible();
    await expect(calls.getByText(/writer · ok/)).toBeVisible();
    const writer = (await studio.core.invoke('formation.get', {})).capsules.find((c) => c.id === 'writer')!;
    const trace = await studio.core.invoke('trace.tail', { sessionId: writer.sessionId! });
    expect(trace.events).toContainEqual(
      expect.objectContaining({ event_type: 'tool_result', mcp_server: 'files', mcp_tool: 'list_directory', ok: true }),
    );
    await page.getByRole('button', { name: 'Fit view', exact: true }).click();
    await expect(node).toBeInViewport({ ratio: 0.95 });
    await app.screenshot(`mcp-canvas-call-${scheme}`);

    // Untick a tool on the edge: the entry's tools narrow.
    await app.canvas.edge('writer', 'mcp:files').locator('.react-flow__edge-interaction').click({ force: true });
    const ticks = page.getByRole('group', { name: 'Tools writer may call' });
    await expect(ticks.getByRole('checkbox', { name: 'read_text_file' })).toBeChecked();
    await app.screenshot(`mcp-canvas-ticks-${scheme}`);
    // The tick follows the file: it turns off once the core has written the narrowed entry.
    await ticks.getByRole('checkbox', { name: 'read_text_file' }).click();
    await expect(ticks.getByRole('checkbox', { name: 'read_text_file' })).not.toBeChecked();
    await expect(app.canvas.edgeLabels('writer', 'mcp:files').getByText(/^\d+ of \d+ tools$/)).toBeVisible();
    await expect.poll(() => readFileSync(writerFile, 'utf8')).toMatch(/tools: \[[^\]]*list_directory[^\]]*\]/);
    expect(readFileSync(writerFile, 'utf8')).not.toMatch(/tools: \[[^\]]*read_text_file/);
    const narrowed = readFileSync(writerFile, 'utf8');

    // Delete the edge: the manifest is back byte for byte. (Delete in a focused checkbox is not a
    // canvas delete: the focus leaves the tick list first.)
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await app.canvas.deleteEdge('writer', 'mcp:files');
    await expect(app.canvas.edge('writer', 'mcp:files')).toHaveCount(0);
    await expect.poll(() => readFileSync(writerFile, 'utf8')).toBe(before);

    // Undo: the edge comes back, narrowed as it was.
    await page.keyboard.press('Control+Z');
    await expect(app.canvas.edge('writer', 'mcp:files')).toBeVisible();
    await expect.poll(() => readFileSync(writerFile, 'utf8')).toBe(narrowed);

    // Deleting the node deletes its edges (the permissions) too; one Undo brings both back.
    const formation = join(studio.workspace, 'formation.yaml');
    const withServer = readFileSync(formation, 'utf8');
    await app.canvas.nodeById('mcp:files').click({ position: { x: 60, y: 12 } });
    await page.keyboard.press('Delete');
    await page.getByRole('dialog', { name: 'Remove files?' }).getByRole('button', { name: 'Remove' }).click();
    await expect(node).toHaveCount(0);
    await expect.poll(() => readFileSync(writerFile, 'utf8')).toBe(before);
    expect(readFileSync(formation, 'utf8')).not.toContain('tool_servers');
    await page.keyboard.press('Control+Z');
    await expect(node).toBeVisible();
    await expect.poll(() => readFileSync(writerFile, 'utf8')).toBe(narrowed);
    expect(readFileSync(formation, 'utf8')).toBe(withServer);

    // Selected, the side panel shows the server: who may use it (narrowed) and its tools.
    await app.canvas.nodeById('mcp:files').click({ position: { x: 60, y: 12 } });
    await expect(page.getByRole('heading', { name: 'Tool server files' })).toBeAttached();
    await expect(page.getByRole('listitem').filter({ hasText: /^writer/ })).toContainText('list_directory');
    await app.screenshot(`mcp-canvas-details-${scheme}`);
  });
}

// A selected edge's tick list keeps its size on screen whatever the zoom: the canvas scales its
// contents, the list must not grow over the graph zoomed in, nor shrink unreadable zoomed out.
test('the tick list of a tool edge keeps its screen size when zooming', async ({ page }) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await expect(app.canvas.capsule('writer')).toBeVisible();
  await app.canvas.dropFromPalette('Tool server (MCP)', { x: 620, y: 520 });
  const dialog = page.getByRole('dialog', { name: 'Add a tool server (MCP)' });
  await dialog.getByLabel('Name', { exact: true }).fill('files');
  await dialog.getByLabel('Command', { exact: true }).fill('node');
  await dialog.getByLabel('Arguments (one a line)').fill(`${FS_SERVER}\n.`);
  await dialog.getByRole('button', { name: 'Add tool server' }).click();
  const node = page.getByRole('group', { name: 'Tool server files', exact: true });
  await expect(node.getByRole('list', { name: 'Tools of files' }).getByText('list_directory')).toBeVisible({
    timeout: 20_000,
  });
  await app.canvas.connect('writer', 'mcp:files', 'tools');
  await app.canvas.edge('writer', 'mcp:files').locator('.react-flow__edge-interaction').click({ force: true });
  const ticks = page.getByRole('group', { name: 'Tools writer may call' });
  await expect(ticks.getByRole('checkbox', { name: 'list_directory', exact: true })).toBeVisible();
  const size = async () => {
    const b = await ticks.boundingBox();
    return b ? { width: Math.round(b.width), height: Math.round(b.height) } : null;
  };
  const before = await size();
  await page.getByRole('button', { name: 'Zoom In' }).click();
  await page.getByRole('button', { name: 'Zoom In' }).click();
  await expect.poll(size).toEqual(before);
  for (let i = 0; i < 4; i++) await page.getByRole('button', { name: 'Zoom Out' }).click();
  await expect.poll(size).toEqual(before);
  await page.screenshot({ path: test.info().outputPath('ticks-zoomed-out.png') });
});
