import { defineConfig } from '@playwright/test';

/**
 * e2e against the built app (`npm run build` first; `npm test` does) served by scripts/serve.js,
 * in the system Chromium. Never `playwright install`: CI installs Debian's chromium with apt-get.
 */
const PORT = Number(process.env.E2E_PORT ?? 4183);

export const chromiumLaunch = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    launchOptions: chromiumLaunch,
    // A trace recorded for every test (kept only for failures) cost about a quarter of the e2e
    // time on 2 cores (screencast and DOM snapshots of each action). A failure keeps a screenshot
    // and the error context; E2E_TRACE=1 records traces again when a failure needs one.
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'app', testIgnore: '**/offline*.spec.ts' },
    { name: 'offline', testMatch: '**/offline*.spec.ts' },
  ],
  webServer: {
    // The tiny test model (transformers.js e2e) is generated first when it is missing.
    command: `npx tsx scripts/ensure-test-model.ts && node scripts/serve.js`,
    env: { PORT: String(PORT), HOST: '127.0.0.1' },
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
