import { rmSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { StudioPage } from './pages/studio';
import { TunnelPage } from './pages/tunnel';
import { connectContract, copyExampleWorkspace, startStudio, type StudioProcess } from './support/studio';

// Reach from anywhere: expose a capsule, open a tunnel from its Expose panel (through the loopback
// stand-in for cloudflared's edge, so no internet is needed), take the link shown once, exchange it
// for the cookie and call the capsule through the tunnel as an outside caller would, watch the calls
// appear live, revoke the link (refused at once) and stop the tunnel (gone). A provider that cannot
// start says why in one line.

const PUBLIC = 'https://tunnel.example.test';
let server: StudioProcess | undefined;
let workspace: string | undefined;
test.afterEach(async () => {
  await server?.close();
  if (workspace) rmSync(workspace, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
});

const send = (url: string, headers: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: 'e2e-tunnel', role: 'ROLE_USER', parts: [{ text: 'hello from anywhere' }] } },
    }),
  });

test('reach an exposed capsule from anywhere: link once, live calls, revoke, stop', async ({ page }) => {
  workspace = await copyExampleWorkspace();
  server = await startStudio({ workspace, env: { CAPSULE_TEST_TUNNEL_STAND_IN: '1', NGROK_AUTHTOKEN: '' } });
  const app = new StudioPage(page);
  const tunnel = new TunnelPage(page);
  await page.goto(server.url);
  await app.canvas.capsule('writer').getByRole('button', { name: 'Launch writer' }).click();
  await expect(app.stateOf('writer')).toHaveText('Idle', { timeout: 20_000 });
  await app.canvas.select('writer');
  await page.getByText('Expose to outside callers').click();
  await page.getByRole('switch', { name: 'Expose writer through the gateway' }).click();
  const token = await page
    .getByRole('region', { name: 'New token' })
    .getByRole('textbox', { name: 'Token' })
    .inputValue();
  await page.getByRole('button', { name: 'Hide the token' }).click();

  // A provider that cannot start: one line saying why, and no tunnel.
  await tunnel.toggle();
  await tunnel.provider.selectOption('ngrok');
  await tunnel.open.click();
  await expect(tunnel.error).toHaveText(
    /^The tunnel could not open, nothing is exposed: ngrok needs an authtoken: set NGROK_AUTHTOKEN/,
  );
  await expect(tunnel.tunnel(PUBLIC)).toHaveCount(0);

  await tunnel.provider.selectOption('cloudflared');
  await tunnel.lifetime.selectOption('1h');
  await tunnel.open.click();
  await expect(tunnel.error).toBeHidden();
  const card = tunnel.tunnel(PUBLIC);
  await expect(card).toContainText(/expires in 59 min \d+ s/);
  await expect(card.getByRole('textbox', { name: 'Gateway URL through the tunnel' })).toHaveValue(
    `${PUBLIC}/a2a/capsules/writer/`,
  );
  const link = await tunnel.link.inputValue();
  expect(link).toMatch(/^https:\/\/tunnel\.example\.test\/\?t=\S+$/);

  // The test stands where the tunnel's edge is: the stand-in's loopback address.
  let edge = '';
  await expect
    .poll(
      () =>
        (edge =
          /tunnel stand-in: https:\/\/tunnel\.example\.test answers at (http:\/\/127\.0\.0\.1:\d+)/.exec(
            server!.stderr(),
          )?.[1] ?? ''),
    )
    .not.toBe('');
  const viaEdge = (url: string) => url.replace(PUBLIC, edge);

  expect((await fetch(`${edge}/a2a/capsules/writer/`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
    401,
  ); // no link, no cookie
  const exchanged = await fetch(viaEdge(link), { redirect: 'manual' });
  expect(exchanged.status).toBe(303);
  const cookie = exchanged.headers.get('set-cookie')!.split(';')[0];
  expect(cookie).toMatch(/^__Host-capsule_tunnel=/);
  const headers = { cookie, authorization: `Bearer ${token}` };
  const agentCard = (await (
    await fetch(`${edge}/a2a/capsules/writer/.well-known/agent-card.json`, { headers })
  ).json()) as { supportedInterfaces: { url: string }[] };
  expect(agentCard.supportedInterfaces[0].url).toBe(`${PUBLIC}/a2a/capsules/writer/`);
  const answer = (await (await send(`${edge}/a2a/capsules/writer/`, headers)).json()) as {
    result: { task: { status: { state: string } } };
  };
  expect(answer.result.task.status.state).toBe('TASK_STATE_COMPLETED');

  const calls = tunnel.calls(PUBLIC);
  await expect(calls.getByRole('row').filter({ hasText: 'POST /a2a/capsules/writer/' })).toContainText(
    'let through (200',
  );
  await expect(calls.getByRole('row').filter({ hasText: 'link exchanged for a cookie' })).toHaveCount(1);
  await expect(calls.getByRole('row').filter({ hasText: 'refused: no link or cookie' })).toHaveCount(1);
  await expect(card).toContainText('2 calls let through, 1 refused');
  await tunnel.fresh.scrollIntoViewIfNeeded();
  await app.screenshot('tunnel-link');
  await calls.scrollIntoViewIfNeeded();
  await app.screenshot('tunnel-calls');

  // Shown once: folding the section forgets it; it is not back when the section opens again.
  await tunnel.toggle();
  await tunnel.toggle();
  await expect(card).toBeVisible();
  await expect(tunnel.fresh).toHaveCount(0);
  expect(await page.content()).not.toContain(link.split('?t=')[1]);

  await card.getByRole('button', { name: 'Revoke the tunnel link (callers are refused at once)' }).click();
  await expect(card).toContainText('link revoked');
  expect((await fetch(viaEdge(link), { redirect: 'manual' })).status).toBe(401);
  expect((await send(`${edge}/a2a/capsules/writer/`, headers)).status).toBe(401);
  await expect(calls.getByRole('row').filter({ hasText: 'refused: link revoked' })).toHaveCount(2);
  await app.screenshot('tunnel-revoked');

  await card.getByRole('button', { name: 'Stop the tunnel' }).click();
  await expect(card).toHaveCount(0);
  await expect(fetch(`${edge}/`)).rejects.toThrow(); // the edge is gone with the tunnel
  const core = await connectContract(server.url);
  expect((await core.invoke('tunnel.list', {})).tunnels).toEqual([]);
  core.close();
});
