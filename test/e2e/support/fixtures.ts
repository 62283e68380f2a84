/**
 * Playwright fixtures: the three servers (one set per worker), a fresh API key per test (the
 * sandbox counts rate limits per `KEY:suffix`), and a collector of everything that should not
 * happen on a happy path: page errors, console errors, CSP violations (in every frame).
 */
import { test as base, expect, type Page } from '@playwright/test';
import { startSandbox } from '../../../sandbox/server';
import { htmlPage, startCdn, startSite, widgetPagePolicy } from './servers';

type Started<T> = T extends Promise<infer R> ? R : never;

export interface Servers {
  sandbox: Started<ReturnType<typeof startSandbox>>;
  cdn: Started<ReturnType<typeof startCdn>>;
  site: Started<ReturnType<typeof startSite>>;
}

export interface Problems {
  pageErrors: string[];
  consoleErrors: string[];
  cspViolations: string[];
  /** Everything above, for one readable assertion. */
  all(): string[];
}

let keyCounter = 0;

export const test = base.extend<{ key: string; base: string; problems: Problems }, { servers: Servers }>({
  servers: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      // No market ticks of its own: a test sets the prices it checks, and a tick between the set and the
      // check would change them (iframe.spec raced on that under load).
      const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', market: 'open', tickMs: 0 });
      const origin = new URL(sandbox.url).origin;
      const cdn = await startCdn({ htmlPolicy: widgetPagePolicy(origin) });
      const site = await startSite();
      await use({ sandbox, cdn, site });
      await Promise.all([site.close(), cdn.close(), sandbox.close()]);
    },
    { scope: 'worker' },
  ],

  // eslint-disable-next-line no-empty-pattern
  key: async ({}, use, testInfo) => {
    keyCounter += 1;
    await use(`pro-key:e2e-${testInfo.workerIndex}-${keyCounter}`);
  },

  /** The sandbox's origin without a trailing slash (what `base-url` takes). */
  base: async ({ servers }, use) => {
    await use(sandboxBase(servers));
  },

  problems: async ({ page }, use) => {
    const problems: Problems = {
      pageErrors: [],
      consoleErrors: [],
      cspViolations: [],
      all() {
        return [...this.pageErrors, ...this.consoleErrors, ...this.cspViolations];
      },
    };
    page.on('pageerror', (error) => problems.pageErrors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error')
        problems.consoleErrors.push(`console: ${message.text()} (${message.location().url})`);
    });
    await page.exposeBinding('__reportCspViolation', ({ frame }, text: string) => {
      problems.cspViolations.push(`csp (${frame.url()}): ${text}`);
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const report = (window as unknown as { __reportCspViolation?: (text: string) => void }).__reportCspViolation;
        report?.(
          `${event.violatedDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}`,
        );
      });
    });
    await use(problems);
  },
});

export { expect };
export { htmlPage } from './servers';

/** The sandbox's origin without a trailing slash (what `base-url` takes). */
export function sandboxBase(servers: Servers): string {
  return new URL(servers.sandbox.url).origin;
}

/** Opens the demo (the CDN's index.html) with `key` and the sandbox, and `query` (`&name=value...`), once its symbol list is there. */
export async function openDemoIn(page: Page, servers: Servers, key: string, query = ''): Promise<void> {
  await page.goto(
    `${servers.cdn.url}index.html?key=${encodeURIComponent(key)}&base-url=${sandboxBase(servers)}${query}`,
  );
  // The symbol list has come from /v1/symbols.
  await expect(page.locator('#symbol-groups .symbol-option').first()).toBeVisible();
}

/** Sets exact prices on the sandbox market; each is pushed to open streams. */
export async function setPrices(servers: Servers, set: Array<{ symbol: string; price: string }>): Promise<void> {
  const response = await fetch(`${sandboxBase(servers)}/__sandbox/market`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ set }),
  });
  if (!response.ok) throw new Error(`sandbox market: ${response.status} ${await response.text()}`);
}

type Scope = Pick<Page, 'locator'>;

/** The price cell of `symbol` in the first board inside `scope` (a page, frame or locator). */
export function priceCell(scope: Scope, symbol: string) {
  return scope.locator(`[part~="row"][data-symbol="${symbol}"] [part~="price"]`).first();
}

/** Every board row inside `scope`. */
export function rows(scope: Scope) {
  return scope.locator('[part~="row"]');
}

/** The script tags of the three widgets (`<price-board>`, `<price-ticker>`, `<price-converter>`) from the CDN. */
export function widgetScripts(servers: Servers): string {
  return ['price-board', 'price-ticker', 'price-converter']
    .map((name) => `<script type="module" src="${servers.cdn.url}${name}.js"></script>`)
    .join('');
}

/** From now on, the text of every console warning of the page (its frames' too); the list fills as they come. */
export function recordWarnings(page: Page): string[] {
  const warnings: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning') warnings.push(m.text());
  });
  return warnings;
}

/** A third-party page loading the element from the CDN, with `body`. */
export function htmlPageFor(servers: Servers, body: string, head = ''): string {
  return htmlPage(body, `<script type="module" src="${servers.cdn.url}price-board.js"></script>${head}`);
}

/**
 * The address of a third-party page at `path` that loads the element from the CDN and holds one
 * board of `key` on the sandbox with `attributes`, then `after`.
 */
export function boardPageFor(servers: Servers, key: string, path: string, attributes: string, after = ''): string {
  const board = `<price-board api-key="${key}" base-url="${sandboxBase(servers)}" ${attributes}></price-board>`;
  return servers.site.page(path, htmlPageFor(servers, board + after));
}

/** Persian digits for an ASCII digit string (for asserting prices). */
export function persianDigits(value: string): string {
  return value.replace(/[0-9]/g, (d) => String.fromCharCode(0x06f0 + Number(d)));
}

/** `1234567` → `۱٬۲۳۴٬۵۶۷` (Persian digits, Arabic thousands separator U+066C). */
export function persianGrouped(digits: string): string {
  return persianDigits(digits.replace(/\B(?=(\d{3})+(?!\d))/g, '\u066c'));
}

/**
 * Starts recording the data of every message the page's window receives; returns a reader. The
 * loader's own `message` listener runs in the same dispatch, so once a message is in this list the
 * loader has handled it too: a check that a message was ignored waits for it here, not for a time.
 */
export async function recordMessages(page: Page): Promise<() => Promise<unknown[]>> {
  await page.evaluate(() => {
    const w = window as unknown as { __messages: unknown[] };
    w.__messages = [];
    window.addEventListener('message', (event) => w.__messages.push(event.data));
  });
  return () => page.evaluate(() => (window as unknown as { __messages: unknown[] }).__messages);
}

/**
 * From the next page load on, records `detail[field]` of every `type` event in the page (any
 * board's, captured at the document); returns a reader of the values so far.
 */
export async function recordEventDetails(page: Page, type: string, field: string): Promise<() => Promise<string[]>> {
  await page.addInitScript(
    ({ type, field }) => {
      const w = window as unknown as { __events?: Record<string, string[]> };
      const values: string[] = [];
      (w.__events ??= {})[type] = values;
      document.addEventListener(
        type,
        (e) => values.push((e as CustomEvent<Record<string, string>>).detail[field]!),
        true,
      );
    },
    { type, field },
  );
  return () =>
    page.evaluate((type) => (window as unknown as { __events: Record<string, string[]> }).__events[type]!, type);
}

/** From the next page load on, records the `code` of every `price-board-error` in the page; returns a reader. */
export const recordErrorCodes = (page: Page) => recordEventDetails(page, 'price-board-error', 'code');

/** Whether a message's data is a `{ height }` object with this height. */
export const hasHeight = (data: unknown, height: unknown): boolean =>
  typeof data === 'object' && data !== null && (data as { height?: unknown }).height === height;
