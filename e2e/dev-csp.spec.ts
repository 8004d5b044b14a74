import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { createServer, type UserConfig, type ViteDevServer } from 'vite';
import config from '../electron.vite.config';

// npm run dev's page in a real browser: its CSP governs every script of the page, React's refresh
// preamble runs under it (hot reload works), and nothing is refused. The production page's CSP is checked against the
// build in scripts/desktop/packaging.test.ts.

let server: ViteDevServer | undefined;
test.afterEach(async () => {
  await server?.close();
});

test('the dev page runs the React refresh preamble and its CSP refuses nothing', async ({ page }) => {
  const renderer = (config as { renderer: UserConfig }).renderer;
  server = await createServer({
    ...renderer,
    configFile: false,
    root: resolve(__dirname, '..', 'src-renderer'),
    logLevel: 'silent',
    server: { port: 0, host: '127.0.0.1', strictPort: false },
  });
  await server.listen();
  const url = server.resolvedUrls!.local[0];
  const refused: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
  });
  await page.goto(url);
  // The preamble is the inline script that installs React's refresh hooks on window.
  await expect
    .poll(() => page.evaluate(() => typeof (window as unknown as { $RefreshSig$?: unknown }).$RefreshSig$))
    .toBe('function');
  // The CSP comes first in <head>, so it governs the dev server's own scripts too (a meta CSP
  // applies only to what follows it), and the preamble still ran: it is admitted by its hash.
  expect(await page.evaluate(() => document.head.firstElementChild?.getAttribute('http-equiv'))).toBe(
    'Content-Security-Policy',
  );
  // The app itself came up (its toolbar), so the module graph loaded under the CSP too.
  await expect(page.getByText('Capsule Studio').first()).toBeVisible();
  expect(refused).toEqual([]);
});
