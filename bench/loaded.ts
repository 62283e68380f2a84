/**
 * Size as the browser sees it: the JS files a board actually loads from dist/, with the chart off
 * and on (resource timing after rows, candles and a settle time). Lazy chunks that every board
 * fetches at start (e.g. the live transport) show up in the chart-off set; the chart chunk is what
 * only the chart-on board loads.
 */
import type { Browser } from 'playwright';
import { boardUrl, js, newPage, pageErrors } from './browser';
import { PAINT_SYMBOLS } from './paint';
import type { BenchServer } from './server';
import { sizeOf, type GraphSize } from './module-graph';
import { sleep, until } from './util';
import { resolve } from 'node:path';

export interface LoadedJs {
  noChart: GraphSize;
  withChart: GraphSize;
  /** Loaded only when a chart is shown. */
  chartOnly: GraphSize;
  errors: string[];
}

async function loadedFiles(
  browser: Browser,
  server: BenchServer,
  key: string,
  chart: 'none' | 'candles',
  errors: string[],
): Promise<string[]> {
  const { context, page } = await newPage(browser, {
    watch: true,
    rows: PAINT_SYMBOLS.length,
    chartWatch: chart !== 'none',
  });
  try {
    await page.goto(boardUrl(server.url, { symbols: PAINT_SYMBOLS, key, base: server.url, chart }));
    await until(
      chart === 'none' ? 'rows' : 'chart candles',
      async () => {
        const t = (await js<{ paintAt?: number; chartCandlesAt?: number }[]>(page, '__bench.times()'))[0];
        return (chart === 'none' ? t?.paintAt : t?.chartCandlesAt) !== undefined ? true : undefined;
      },
      15_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}; page errors: ${pageErrors(page).join(' | ') || 'none'}`);
    });
    await sleep(1500); // lazy chunks loaded after the first data (stream transport, …)
    const names = await js<string[]>(
      page,
      `performance.getEntriesByType('resource').map(function (e) { return new URL(e.name).pathname; })`,
    );
    errors.push(...pageErrors(page));
    return [
      ...new Set(names.filter((n) => n.startsWith('/dist/') && n.endsWith('.js')).map((n) => n.slice('/dist/'.length))),
    ];
  } finally {
    await context.close();
  }
}

export async function runLoaded(browser: Browser, server: BenchServer, dist: string, key: string): Promise<LoadedJs> {
  const errors: string[] = [];
  const none = await loadedFiles(browser, server, `${key}-none`, 'none', errors);
  const candles = await loadedFiles(browser, server, `${key}-candles`, 'candles', errors);
  const abs = (files: string[]) => files.map((f) => resolve(dist, f));
  return {
    noChart: sizeOf(abs(none), dist),
    withChart: sizeOf(abs(candles), dist),
    chartOnly: sizeOf(abs(candles.filter((f) => !none.includes(f))), dist),
    errors,
  };
}
