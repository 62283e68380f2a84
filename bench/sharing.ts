/**
 * Sharing: N boards on one page with the same base-url and key (all in the HTML before the element
 * is defined). Counted at the sandbox, from its request log filtered by the page's key: stream
 * connections and /v1/prices requests until every board shows its rows (plus a settle time).
 * Baseline: the same page with a single board.
 */
import type { Browser } from 'playwright';
import { boardUrl, js, newPage, pageErrors } from './browser';
import { PAINT_SYMBOLS } from './paint';
import { requestsOf, type BenchServer } from './server';
import { oneAndMany, sleep, until } from './util';

export interface ShareCounts {
  boards: number;
  streams: number;
  prices: number;
  history: number;
  other: number;
  allRowsMs: number;
}
export interface SharingResults {
  single: ShareCounts;
  many: ShareCounts;
  errors: string[];
}

async function countFor(
  browser: Browser,
  server: BenchServer,
  key: string,
  boards: number,
  errors: string[],
): Promise<ShareCounts> {
  const { context, page } = await newPage(browser, { watch: true, rows: PAINT_SYMBOLS.length });
  try {
    await page.goto(boardUrl(server.url, { symbols: PAINT_SYMBOLS, key, base: server.url, count: boards }));
    const allRowsMs = await until(
      `${boards} boards with rows`,
      async () => {
        const t = await js<{ paintAt?: number }[]>(page, '__bench.times()');
        return t.length === boards && t.every((x) => x.paintAt !== undefined)
          ? Math.max(...t.map((x) => x.paintAt!))
          : undefined;
      },
      15_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}; page errors: ${pageErrors(page).join(' | ') || 'none'}`);
    });
    await sleep(1500); // a late second request would still be counted
    const { count, total } = await requestsOf(server, key);
    const streams = count('/v1/stream');
    const prices = count('/v1/prices');
    const history = count('/v1/history');
    errors.push(...pageErrors(page));
    return { boards, streams, prices, history, other: total - streams - prices - history, allRowsMs };
  } finally {
    await context.close();
  }
}

export function runSharing(
  browser: Browser,
  server: BenchServer,
  opts: { keyPrefix: string; boards: number },
): Promise<SharingResults> {
  return oneAndMany(opts.keyPrefix, opts.boards, (key, n, errors) => countFor(browser, server, key, n, errors));
}
