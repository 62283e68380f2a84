import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { chromiumPath, CHROMIUM_ARGS } from './scripts/chromium.mjs';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['test/unit/**/*.test.ts', 'test/sandbox/**/*.test.ts'],
          testTimeout: 20_000,
          hookTimeout: 20_000,
          // expect.poll waits on state; its timeout only bounds a failure, so a busy machine gets
          // 5 s instead of the default 1 s before a wait counts as failed.
          expect: { poll: { timeout: 5_000 } },
        },
      },
      {
        test: {
          name: 'relay',
          environment: 'node',
          include: ['test/relay/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          // Each file starts its own sandbox and relay on port 0; hundreds of sockets per file.
          fileParallelism: false,
        },
      },
      {
        // Pre-bundled up front so Vite does not reload the page in the middle of the first run.
        optimizeDeps: {
          include: ['axe-core', '@open-wc/testing-helpers/pure', 'lit', 'lightweight-charts', 'eventsource-parser'],
        },
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          globalSetup: ['test/browser/global-setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 20_000,
          expect: { poll: { timeout: 5_000 } },
          // Tests share one sandbox and switch its faults: one file at a time.
          fileParallelism: false,
          browser: {
            // The sandbox's test controls refuse cross-origin pages (any page could drive them
            // otherwise), and the page under test is on another origin: it asks Node to call them.
            commands: {
              sandboxControl: async (_ctx, url: string, method: string, body?: string) => {
                const headers = body === undefined ? undefined : { 'content-type': 'application/json' };
                const res = await fetch(url, { method, headers, body });
                return { status: res.status, text: await res.text() };
              },
            },
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
              contextOptions: { locale: 'fa-IR', timezoneId: 'Asia/Tehran' },
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
