import { defineConfig } from '@playwright/test';
import { chromiumPath, CHROMIUM_ARGS } from './scripts/chromium.mjs';

export default defineConfig({
  testDir: 'test/e2e',
  // The docs' screenshots are written by `npm run screenshots`, never by `npm test`: a test run
  // leaves the work tree as it found it.
  testIgnore: process.env.SCREENSHOTS ? [] : ['**/screenshots.spec.ts'],
  // Failure bounds, not waits: a loaded 2-core machine can take seconds for what usually takes ms.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  reporter: process.env.CI ? 'list' : 'line',
  use: {
    locale: 'fa-IR',
    timezoneId: 'Asia/Tehran',
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
