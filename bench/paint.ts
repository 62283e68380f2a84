/**
 * First paint: a page with one 10-symbol board. Time from the element's connection (its upgrade,
 * when it attaches its shadow root) to the rendered frame that shows 10 rows with prices (also
 * from navigation start, for information); the round trip of a bare `fetch` of the same
 * /v1/prices from that page (after warm-up, median); and the time to the chart's first candles.
 * Fresh context per run.
 */
import type { Browser } from 'playwright';
import { boardUrl, js, newPage, pageErrors } from './browser';
import type { BenchServer } from './server';
import { median, until } from './util';

export const PAINT_SYMBOLS = [
  'usd',
  'eur',
  'gold_18',
  'coin_emami',
  'ons',
  'aed',
  'gbp',
  'gold_24',
  'coin_bahar',
  'silver_999',
];

interface BoardTimes {
  attachAt?: number;
  rowsAt?: number;
  frameAt?: number;
  paintAt?: number;
  chartCanvasAt?: number;
  chartTextAt?: number;
  chartCandlesAt?: number;
  ready: number;
}
export interface TimelineEntry {
  path: string;
  type: string;
  sentMs: number;
  responseMs: number | null;
  doneMs: number | null;
}
interface ResourceTiming {
  name: string;
  start: number;
  end: number;
}
export interface PaintRun {
  /** From navigation start: the first task after the frame that renders the rows. */
  rowsPaintedMs: number;
  /** When the MutationObserver saw the 10 rows with prices (before the frame that paints them). */
  rowsInDomMs: number;
  /** The rAF callback of that frame (its style, layout and paint follow). */
  rowsFrameMs: number;
  /** From the element's connection (upgrade) to rows painted: the primary figure. */
  fromUpgradeMs: number;
  chartCandlesMs: number | null;
  chartTextMs: number | null;
  rttMs: number;
  rtts: number[];
  attachAt: number;
  resources: ResourceTiming[];
}
export interface PaintResults {
  variant: 'same-origin' | 'cross-origin';
  note: string;
  runs: PaintRun[];
  /** Median from navigation start (information: includes loading the page and the module). */
  rowsPaintedMs: number;
  /** Median from the element's connection: compared with the target. */
  fromUpgradeMs: number;
  rttMs: number;
  targetMs: number;
  /** fromUpgradeMs / rttMs. */
  ratio: number;
  /** rowsPaintedMs / rttMs. */
  navRatio: number;
  chartCandlesMs: number | null;
  chartTextMs: number | null;
  /** One extra run with DevTools network events: when each request was sent and answered (ms from the document request). */
  timeline: TimelineEntry[];
  timelineMarks?: BoardTimes;
  /** Median breakdown (ms from navigation start): module graph loaded, upgrade, the board's /v1/prices sent and answered, rows. */
  breakdown: {
    moduleLoadedMs: number;
    upgradedMs: number;
    pricesStartMs: number;
    pricesEndMs: number;
    rowsInDomMs: number;
    rowsFrameMs: number;
    historyStartMs: number | null;
    historyEndMs: number | null;
  };
  /** Medians of per-run gaps: where the time between the element's upgrade and the painted rows goes. */
  gaps: {
    upgradeToPricesSent: number;
    boardPricesRoundTrip: number;
    answerToRowsInDom: number;
    /** Rows in the DOM → the rAF callback of the next frame. */
    domToFrame: number;
    /** That rAF callback → the frame rendered (style, layout, paint of the rows). */
    frameToPainted: number;
    domToPaintedFrame: number;
  };
  errors: string[];
}

function nullableMedian(xs: (number | null)[]): number | null {
  const v = xs.filter((x): x is number => x !== null);
  return v.length ? median(v) : null;
}

export async function runPaint(
  browser: Browser,
  server: BenchServer,
  opts: { variant: 'same-origin' | 'cross-origin'; runs: number; key: string; initialFiles: string[] },
): Promise<PaintResults> {
  const pageOrigin = opts.variant === 'same-origin' ? server.url : server.otherUrl;
  const pricesUrl = `${server.url}/v1/prices?symbols=${PAINT_SYMBOLS.join(',')}`;
  const runs: PaintRun[] = [];
  const errors: string[] = [];
  let timeline: TimelineEntry[] = [];
  let timelineMarks: BoardTimes | undefined;
  // Run 0 warms up the browser process; runs 1..n are measured; the last one records a request
  // timeline through the DevTools Network domain (which adds its own overhead, so it is not measured).
  for (let i = 0; i < opts.runs + 2; i++) {
    const diagnostic = i === opts.runs + 1;
    const { context, page, cdp } = await newPage(browser, {
      watch: true,
      rows: PAINT_SYMBOLS.length,
      chartWatch: true,
    });
    const net = new Map<string, { url: string; type: string; sent: number; response?: number; done?: number }>();
    if (diagnostic) {
      cdp.on('Network.requestWillBeSent', (e) =>
        net.set(e.requestId, { url: e.request.url, type: String(e.type ?? ''), sent: e.timestamp }),
      );
      cdp.on('Network.responseReceived', (e) => {
        const r = net.get(e.requestId);
        if (r) r.response = e.timestamp;
      });
      cdp.on('Network.loadingFinished', (e) => {
        const r = net.get(e.requestId);
        if (r) r.done = e.timestamp;
      });
      await cdp.send('Network.enable');
    }
    try {
      await page.goto(boardUrl(pageOrigin, { symbols: PAINT_SYMBOLS, key: opts.key, base: server.url }));
      const t = await until(
        'rows painted',
        async () => {
          const all = await js<BoardTimes[]>(page, '__bench.times()');
          return all[0]?.paintAt !== undefined ? all[0] : undefined;
        },
        15_000,
        20,
      ).catch((e: Error) => {
        throw new Error(`${e.message}; page errors: ${pageErrors(page).join(' | ') || 'none'}`);
      });
      // Chart: wait for candles (or give up after 8 s: reported as missing).
      const chart = await until(
        'chart candles',
        async () => {
          const all = await js<BoardTimes[]>(page, '__bench.times()');
          const c = all[0]!;
          return c.chartCandlesAt !== undefined && c.chartTextAt !== undefined ? c : undefined;
        },
        8_000,
        50,
      ).catch(async () => (await js<BoardTimes[]>(page, '__bench.times()'))[0]!);
      const rtts = await js<number[]>(
        page,
        `__bench.rtt(${JSON.stringify(pricesUrl)}, ${JSON.stringify(opts.key)}, 3, 15)`,
      );
      const resources = await js<ResourceTiming[]>(
        page,
        `performance.getEntriesByType('resource').map(function (e) { return { name: e.name.replace(/^https?:\\/\\/[^/]+/, ''), start: e.startTime, end: e.responseEnd }; })`,
      );
      const run: PaintRun = {
        rowsPaintedMs: t.paintAt!,
        rowsInDomMs: t.rowsAt!,
        rowsFrameMs: t.frameAt ?? NaN,
        fromUpgradeMs: t.paintAt! - (t.attachAt ?? 0),
        chartCandlesMs: chart.chartCandlesAt ?? null,
        chartTextMs: chart.chartTextAt ?? null,
        rttMs: median(rtts),
        rtts,
        attachAt: t.attachAt ?? NaN,
        resources: resources.filter((r) => !r.name.includes('__sandbox')).slice(0, 16),
      };
      if (diagnostic) {
        const all = [...net.values()];
        const t0 = all.find((r) => r.type === 'Document')?.sent ?? all[0]?.sent ?? 0;
        const rel = (x: number | undefined) => (x === undefined ? null : Math.round((x - t0) * 10_000) / 10);
        timeline = all
          .filter((r) => !r.url.includes('/__sandbox/'))
          .map((r) => ({
            path: r.url.replace(/^https?:\/\/[^/]+/, '').slice(0, 80),
            type: r.type,
            sentMs: rel(r.sent)!,
            responseMs: rel(r.response),
            doneMs: rel(r.done),
          }))
          .slice(0, 12);
        timelineMarks = chart;
      } else if (i > 0) runs.push(run);
      errors.push(...pageErrors(page).map((e) => `run ${i}: ${e}`));
    } finally {
      await context.close();
    }
  }
  const rowsPaintedMs = median(runs.map((r) => r.rowsPaintedMs));
  const fromUpgradeMs = median(runs.map((r) => r.fromUpgradeMs));
  const rttMs = median(runs.map((r) => r.rttMs));
  const targetMs = 1.5 * rttMs + 1000 / 60;
  const find = (r: PaintRun, part: string) => r.resources.find((x) => x.name.includes(part)); // the board's own (first) request
  const initial = new Set(opts.initialFiles.map((f) => `/dist/${f}`));
  const moduleLoaded = runs.map((r) =>
    Math.max(0, ...r.resources.filter((x) => initial.has(x.name)).map((x) => x.end)),
  );
  return {
    variant: opts.variant,
    note:
      opts.variant === 'same-origin'
        ? 'page, dist/ and sandbox on one loopback origin (no CORS preflight)'
        : 'page and dist/ on a second loopback origin, sandbox cross-origin (CORS; the first X-API-Key request needs a preflight)',
    runs,
    timeline,
    timelineMarks,
    rowsPaintedMs,
    fromUpgradeMs,
    rttMs,
    targetMs,
    ratio: fromUpgradeMs / rttMs,
    navRatio: rowsPaintedMs / rttMs,
    chartCandlesMs: nullableMedian(runs.map((r) => r.chartCandlesMs)),
    chartTextMs: nullableMedian(runs.map((r) => r.chartTextMs)),
    breakdown: {
      moduleLoadedMs: median(moduleLoaded),
      upgradedMs: median(runs.map((r) => r.attachAt)),
      pricesStartMs: median(runs.map((r) => find(r, '/v1/prices')?.start ?? NaN)),
      pricesEndMs: median(runs.map((r) => find(r, '/v1/prices')?.end ?? NaN)),
      rowsInDomMs: median(runs.map((r) => r.rowsInDomMs)),
      rowsFrameMs: median(runs.map((r) => r.rowsFrameMs)),
      historyStartMs: nullableMedian(runs.map((r) => find(r, '/v1/history')?.start ?? null)),
      historyEndMs: nullableMedian(runs.map((r) => find(r, '/v1/history')?.end ?? null)),
    },
    gaps: {
      upgradeToPricesSent: median(runs.map((r) => (find(r, '/v1/prices')?.start ?? NaN) - r.attachAt)),
      boardPricesRoundTrip: median(
        runs.map((r) => (find(r, '/v1/prices')?.end ?? NaN) - (find(r, '/v1/prices')?.start ?? NaN)),
      ),
      answerToRowsInDom: median(runs.map((r) => r.rowsInDomMs - (find(r, '/v1/prices')?.end ?? NaN))),
      domToFrame: median(runs.map((r) => r.rowsFrameMs - r.rowsInDomMs)),
      frameToPainted: median(runs.map((r) => r.rowsPaintedMs - r.rowsFrameMs)),
      domToPaintedFrame: median(runs.map((r) => r.rowsPaintedMs - r.rowsInDomMs)),
    },
    errors,
  };
}
