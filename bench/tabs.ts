/**
 * Sharing across tabs (DESIGN.md §6 and §12, "one stream per browser, not per tab"): one browser
 * context (one profile: the tabs share Web Locks and BroadcastChannel), N pages of the same origin
 * opened one after another, each with one board (same base-url and key, chart="none": the stream is
 * the subject), each waited for until it shows `live`. Counted at the sandbox, from its request log
 * filtered by the key, after every tab shows live and a settle time: stream connections opened,
 * and those still open. Baseline: one tab.
 */
import type { Browser, Page } from 'playwright';
import { boardUrl, js, newPage, pageErrors, probedPage } from './browser';
import { PAINT_SYMBOLS } from './paint';
import { requestsOf, type BenchServer } from './server';
import { oneAndMany, sleep, until } from './util';

export interface TabCounts {
  tabs: number;
  /** `/v1/stream` requests of the key at the service. */
  streams: number;
  /** Stream connections open at the service at the end (every key: nothing else runs meanwhile). */
  openStreams: number;
  prices: number;
  /** Each tab's status at the end. */
  statuses: string[];
}
export interface TabsResults {
  single: TabCounts;
  many: TabCounts;
  errors: string[];
}

const STATUS = `document.querySelector('price-board') && document.querySelector('price-board').status`;

async function countTabs(
  browser: Browser,
  server: BenchServer,
  key: string,
  tabs: number,
  errors: string[],
): Promise<TabCounts> {
  const cfg = { watch: true, rows: PAINT_SYMBOLS.length };
  const { context, page: first } = await newPage(browser, cfg);
  try {
    const pages: Page[] = [first];
    const url = boardUrl(server.url, { symbols: PAINT_SYMBOLS, key, base: server.url, chart: 'none' });
    for (let i = 0; i < tabs; i++) {
      const page = pages[i] ?? (await probedPage(context, cfg));
      pages[i] = page;
      await page.goto(url);
      await until(
        `tab ${i + 1} of ${tabs} live`,
        async () => ((await js<string | null>(page, STATUS)) === 'live' ? true : undefined),
        15_000,
      ).catch(async (e: Error) => {
        throw new Error(
          `${e.message} (status ${await js<string | null>(page, STATUS)}); page errors: ${pageErrors(page).join(' | ') || 'none'}`,
        );
      });
    }
    await sleep(1500); // a late stream connection would still be counted
    const statuses = await Promise.all(pages.map((p) => js<string | null>(p, STATUS)));
    const { count, openStreams } = await requestsOf(server, key);
    for (const p of pages) errors.push(...pageErrors(p));
    return {
      tabs,
      streams: count('/v1/stream'),
      openStreams,
      prices: count('/v1/prices'),
      statuses: statuses.map(String),
    };
  } finally {
    await context.close();
  }
}

export async function runTabs(
  browser: Browser,
  server: BenchServer,
  opts: { keyPrefix: string; tabs: number },
): Promise<TabsResults> {
  const { errors, ...counts } = await oneAndMany(opts.keyPrefix, opts.tabs, (key, n, seen) =>
    countTabs(browser, server, key, n, seen),
  );
  return { ...counts, errors: [...new Set(errors)].slice(0, 10) };
}
