/**
 * The keyless relay snippet with its preload (DESIGN.md §6 and §12): a relay holding the key in
 * front of the bench's sandbox, serving dist/ too; a page on another origin (the site) that has,
 * as the README's snippet, the module from the relay, a `<link rel="preload" as="fetch"
 * crossorigin>` of the board's first `/v1/prices` URL in its head, and a board with no key
 * (bench/pages/keyless.html). Beside it the floor page pointed at the same relay (one `fetch`, no
 * key, one `innerHTML`). First paint from navigation start as in ./visitor, and the `/v1/prices`
 * requests the relay received per board load: 1 when the board uses the preloaded response.
 */
import type { Browser } from 'playwright';
import { startPageRelay } from './page-relay';
import { PAINT_SYMBOLS } from './paint';
import type { BenchServer } from './server';
import { CONDITIONS, runVisitor, type Condition, type VisitorResult } from './visitor';

export interface KeylessResults {
  /** The URL of the preload (and of the board's first request once it matches). */
  preloadUrl: string;
  conditions: VisitorResult[];
}

export async function runKeyless(
  browser: Browser,
  server: BenchServer,
  opts: { runs: number; keyPrefix: string; dist: string; conditions?: Condition[] },
): Promise<KeylessResults> {
  const pageRelay = await startPageRelay(server, { upstreamKey: `${opts.keyPrefix}-upstream`, dist: opts.dist });
  const { relay } = pageRelay;
  const symbols = PAINT_SYMBOLS.join(',');
  try {
    // The site's page is on the bench server's origin; the relay is another origin (its own port).
    const conditions = await runVisitor(
      browser,
      {
        // The key only names the run (nothing cached by key); the pages send none.
        board: (key) =>
          `${server.url}/bench/keyless.html?${new URLSearchParams({ relay: relay.url, symbols, run: key })}`,
        floor: (key) =>
          `${server.url}/bench/floor.html?${new URLSearchParams({ symbols, key: '', base: relay.url, run: key })}`,
        pricesCount: pageRelay.prices,
      },
      { runs: opts.runs, keyPrefix: opts.keyPrefix, conditions: opts.conditions ?? CONDITIONS },
    );
    return { preloadUrl: `${relay.url}/v1/prices?symbols=${symbols}`, conditions };
  } finally {
    await pageRelay.close();
  }
}
