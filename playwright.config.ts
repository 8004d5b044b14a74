import { defineConfig } from '@playwright/test';
import { electronBinary } from './e2e/support/electron';

// Two projects: `web` (Chromium against the web shell; runs everywhere) and `electron` (the desktop
// app; only where the Electron binary is installed). Each test gets its own workspace; each
// worker its own web shell on port 0, so workers run in parallel safely.

const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export default defineConfig({
  testDir: 'e2e',
  // Set PLAYWRIGHT_OUTPUT_DIR when several runs share a checkout: each run clears its output folder.
  outputDir: process.env.PLAYWRIGHT_OUTPUT_DIR ?? 'test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // Two workers on every machine, CI included: the suite is proven in parallel, and one worker
  // would take CI past its 20 minutes on a two-core machine.
  workers: 2,
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'web',
      testIgnore: /\.electron\.spec\.ts$/,
      use: {
        browserName: 'chromium',
        launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
      },
    },
    ...(electronBinary() ? [{ name: 'electron', testMatch: /\.electron\.spec\.ts$/ }] : []),
  ],
});
