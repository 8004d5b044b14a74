import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { StudioPage } from './pages/studio';

// Expose a capsule from its details, call it from outside with the token shown once,
// watch the call appear live, call it as an MCP tool with the config shown, preview the signed
// card, rotate, warn off loopback, revoke.

const call = (url: string, token: string) =>
  fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: 'e2e-1', role: 'ROLE_USER', parts: [{ text: 'hello from outside' }] } },
    }),
  });

test('expose a capsule, call it from outside, rotate and revoke its token', async ({ page, studio }) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await app.canvas.capsule('writer').getByRole('button', { name: 'Launch writer' }).click();
  await expect(app.stateOf('writer')).toHaveText('Idle', { timeout: 20_000 });
  await app.canvas.select('writer');

  await page.getByText('Expose to outside callers').click();
  await page.getByRole('switch', { name: 'Expose writer through the gateway' }).click();
  const fresh = page.getByRole('region', { name: 'New token' });
  await expect(fresh).toBeVisible();
  const token = await fresh.getByRole('textbox', { name: 'Token' }).inputValue();
  expect(token).toMatch(/^capsule_/);
  await expect(fresh.locator('pre').first()).toContainText(`Bearer ${token}`);
  const url = await page.getByRole('textbox', { name: 'Gateway URL' }).inputValue();
  expect(url).toMatch(/\/a2a\/capsules\/writer\/$/); // the slash lets SDKs resolve the card from it
  await expect(page.getByText(/createFromUrl\(url\)/)).toBeVisible();
  // The canvas says so too, from the same record as the panel's badge, its tooltip the address callers use.
  const mark = app.canvas.capsule('writer').getByRole('img', { name: 'writer is exposed to outside callers' });
  await expect(mark).toBeVisible();
  await expect(mark).toHaveAttribute('title', `writer is exposed to outside callers at ${url}`);
  await app.screenshot('expose-node-mark');
  // Leaving the workspace asks what becomes of the running capsules, and names the exposed one.
  await page.getByRole('button', { name: 'Open…' }).click();
  await page.getByLabel('Workspace folder').fill(join(mkdtempSync(join(tmpdir(), 'studio-other-')), 'other'));
  await page.getByRole('button', { name: 'Create workspace' }).click();
  const ask = page.getByRole('group', { name: 'Running capsules' });
  await expect(ask).toContainText('writer is exposed: outside callers lose it if it stops.');
  await app.screenshot('expose-leave-asks');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await page.keyboard.press('Escape');
  await expect(ask).toBeHidden();

  const answer = (await (await call(url, token)).json()) as any;
  expect(answer.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  const log = page.getByRole('table', { name: 'External calls to writer' });
  await expect(log.getByRole('row').filter({ hasText: 'SendMessage' })).toContainText('ok');

  // The MCP endpoint: the config shown once carries the URL and the token; an MCP client calls writer as a tool.
  const mcpUrl = await page.getByRole('textbox', { name: 'MCP URL' }).inputValue();
  expect(mcpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  const config = JSON.parse((await fresh.locator('pre').nth(1).textContent()) ?? '');
  expect(config.mcpServers['capsule-studio']).toEqual({
    type: 'http',
    url: mcpUrl,
    headers: { Authorization: `Bearer ${token}` },
  });
  const mcp = new Client({ name: 'e2e', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), {
      requestInit: { headers: config.mcpServers['capsule-studio'].headers },
    }),
  );
  expect((await mcp.listTools()).tools.map((t) => t.name)).toEqual(['writer']);
  const result = (await mcp.callTool({ name: 'writer', arguments: { text: 'a paragraph on tides' } })) as any;
  expect(result.content[0].text).toMatch(/^Draft:/);
  await mcp.close();
  await expect(log.getByRole('row').filter({ hasText: 'MCP tools/call' })).toContainText('ok');

  await page.getByRole('button', { name: 'Show the agent card callers get' }).click();
  await expect(page.getByLabel('Agent card preview')).toContainText('httpAuthSecurityScheme');
  await expect(page.getByLabel('Agent card preview')).toContainText('"signatures"');
  await app.screenshot('expose-panel');

  await page.getByRole('button', { name: 'Hide the token' }).click();
  await expect(fresh).toBeHidden();
  // Once the token is hidden, the MCP config stays with a placeholder in its place.
  const placeholder = page.locator('.expose-field').filter({ hasText: 'MCP client config' }).locator('pre');
  await expect(placeholder).toContainText('Bearer <token>');
  await expect(placeholder).not.toContainText(token);
  await page.getByRole('textbox', { name: 'MCP URL' }).scrollIntoViewIfNeeded();
  await app.screenshot('expose-mcp');
  await page.getByRole('button', { name: 'Rotate the token (the old one stops working)' }).click();
  const rotated = await page
    .getByRole('region', { name: 'New token' })
    .getByRole('textbox', { name: 'Token' })
    .inputValue();
  expect(rotated).not.toBe(token);
  expect((await call(url, token)).status).toBe(401);
  await expect(log.getByRole('row').filter({ hasText: 'unauthorized' })).toBeVisible();

  await page.locator('.expose-settings > summary').click();
  await page.getByRole('textbox', { name: /^Gateway host/ }).fill('0.0.0.0');
  await page.getByRole('button', { name: /^Apply gateway settings/ }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'other machines' })).toBeVisible();
  await app.screenshot('expose-warning');
  await page.getByRole('textbox', { name: /^Gateway host/ }).fill('127.0.0.1');
  await page.getByRole('button', { name: /^Apply gateway settings/ }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'other machines' })).toBeHidden();
  await expect(page.getByRole('textbox', { name: 'Gateway URL' })).toHaveValue(url); // same port after the restarts

  await page.getByRole('button', { name: 'Revoke the token and stop exposing' }).click();
  await expect(page.getByRole('switch', { name: 'Expose writer through the gateway' })).not.toBeChecked();
  await expect(mark).toBeHidden();
  expect((await call(url, rotated)).status).toBe(401);
  await studio.core.invoke('expose.list', {});
});
