/**
 * Live load: one board with 170 symbols; the bench pushes 200 quote updates/s for 10 s through the
 * sandbox (`/__sandbox/market {set}`: 10 new prices every 50 ms, each sent to the stream as a
 * `quote` event). Measured in the page: long tasks, long animation frames, rAF intervals, DOM
 * mutations on the board's shadow root vs the cells that actually changed; main-thread busy time
 * from the DevTools Performance metrics. The same figures over an idle window are the baseline.
 */
import type { Browser, CDPSession } from 'playwright';
import { boardUrl, js, newPage, pageErrors, perfMetrics } from './browser';
import type { BenchServer } from './server';
import { nudge, prng, quotesOf, sleep, until, type SandboxStats } from './util';

interface Counts {
  cell: number;
  row: number;
  chart: number;
  other: number;
}
export interface WindowStats {
  durationMs: number;
  records: number;
  byType: Record<string, number>;
  byKind: Counts;
  writes: Counts;
  changed: Counts;
  redundant: Counts;
  structural: number;
  innerElements: number;
  samples: string[];
  innerSamples: string[];
  quotesEvents: number;
  appliedQuotes: number;
  longTasks: { start: number; duration: number }[];
  loafs: {
    start: number;
    duration: number;
    blocking: number;
    render: number;
    scripts: { invoker: string; source: string; duration: number }[];
  }[];
  frames: number;
  slowFrames: number;
  droppedFrames: number;
  maxFrameInterval: number;
  medianFrameInterval: number;
  /** From CDP Performance metrics (seconds → ms) over the window. */
  busyMsPerSec: number;
  /** The main thread's CPU time (ThreadTime): less sensitive than busy to other processes' load. */
  cpuMsPerSec: number;
  scriptMsPerSec: number;
  layoutMsPerSec: number;
  styleMsPerSec: number;
  layoutCount: number;
  styleCount: number;
  longTaskCount: number;
  longTaskMaxMs: number;
}
export interface LiveResults {
  /** prefers-reduced-motion: reduce (no flash): a diagnostic variant. */
  reducedMotion: boolean;
  symbols: number;
  pushed: number;
  pushRequests: number;
  pushWallMs: number;
  pushErrors: string[];
  idle: WindowStats;
  load: WindowStats;
  /** Symbols whose final price in `quotes` differs from the last pushed one. */
  finalMismatches: number;
  /** With a `columns` attribute: what the board made of it. */
  columns?: ColumnsCheck;
  errors: string[];
}
export interface ColumnsCheck {
  asked: string;
  /** The asked cells (parts) found in the rows. */
  shown: string[];
  missing: string[];
  /** Rows whose `spark` cell holds an SVG line, when the load started. */
  sparks: number;
  /** `price-board-error` events of the page (code: message). */
  boardErrors: string[];
}

// The parts of the rows' cells (any row: a bubble is for coins only), and the spark cells that draw an SVG.
const CELLS = `(() => {
  const root = __bench.rootOf(document.querySelector('price-board'));
  const cells = root ? [...root.querySelectorAll('[part~="row"] [part]')] : [];
  const parts = [...new Set(cells.flatMap((e) => e.getAttribute('part').split(/\\s+/)))];
  const sparks = root ? root.querySelectorAll('[part~="row"] [part~="spark"] svg').length : 0;
  return { parts, sparks };
})()`;

/** The live load of DESIGN.md §6: `perSecond` new prices a second, in pushes every `everyMs`, for `seconds`. */
export interface LoadOptions {
  symbols: string[];
  seconds: number;
  perSecond: number;
  everyMs: number;
}

/**
 * Pushes the load through the sandbox (`/__sandbox/market {set}`), nudging `prices` (updated in
 * place to the last pushed price of each symbol).
 */
export async function pushLoad(
  server: BenchServer,
  opts: LoadOptions,
  prices: Map<string, string>,
): Promise<{ pushed: number; pushWallMs: number; pushErrors: string[] }> {
  const rnd = prng(170);
  const perPush = Math.round((opts.perSecond * opts.everyMs) / 1000);
  const pushes = Math.round((opts.seconds * 1000) / opts.everyMs);
  const pushErrors: string[] = [];
  const inflight: Promise<unknown>[] = [];
  let pushed = 0;
  let cursor = 0;
  const start = performance.now();
  for (let i = 0; i < pushes; i++) {
    const wait = start + i * opts.everyMs - performance.now();
    if (wait > 0) await sleep(wait);
    const set = [];
    const at = new Date().toISOString();
    for (let k = 0; k < perPush; k++) {
      const symbol = opts.symbols[cursor++ % opts.symbols.length]!;
      const price = nudge(prices.get(symbol) ?? '1000', rnd);
      prices.set(symbol, price);
      set.push({ symbol, price, updated_at: at });
    }
    pushed += set.length;
    inflight.push(server.call('/__sandbox/market', { body: { set } }).catch((e: Error) => pushErrors.push(e.message)));
  }
  await Promise.all(inflight);
  return { pushed, pushWallMs: performance.now() - start, pushErrors };
}

async function measureWindow(
  cdp: CDPSession,
  page: import('playwright').Page,
  body: () => Promise<void>,
): Promise<WindowStats> {
  await js(page, `__bench.liveStart(document.querySelector('price-board'))`);
  const m0 = await perfMetrics(cdp);
  const t0 = Date.now();
  await body();
  const m1 = await perfMetrics(cdp);
  const wall = (Date.now() - t0) / 1000;
  const s = await js<
    Omit<
      WindowStats,
      | 'busyMsPerSec'
      | 'cpuMsPerSec'
      | 'scriptMsPerSec'
      | 'layoutMsPerSec'
      | 'styleMsPerSec'
      | 'layoutCount'
      | 'styleCount'
      | 'longTaskCount'
      | 'longTaskMaxMs'
    >
  >(page, '__bench.liveStop()');
  const d = (k: string) => (m1[k] ?? 0) - (m0[k] ?? 0);
  return {
    ...s,
    busyMsPerSec: (d('TaskDuration') * 1000) / wall,
    cpuMsPerSec: (d('ThreadTime') * 1000) / wall,
    scriptMsPerSec: (d('ScriptDuration') * 1000) / wall,
    layoutMsPerSec: (d('LayoutDuration') * 1000) / wall,
    styleMsPerSec: (d('RecalcStyleDuration') * 1000) / wall,
    layoutCount: d('LayoutCount'),
    styleCount: d('RecalcStyleCount'),
    longTaskCount: s.longTasks.length,
    longTaskMaxMs: Math.max(0, ...s.longTasks.map((t) => t.duration)),
  };
}

export async function runLive(
  browser: Browser,
  server: BenchServer,
  opts: {
    symbols: string[];
    key: string;
    pushKey: string;
    seconds: number;
    perSecond: number;
    everyMs: number;
    reducedMotion?: boolean;
    /** The board's `columns` attribute (DESIGN.md §10); none: the default columns. */
    columns?: string;
  },
): Promise<LiveResults> {
  const { context, page, cdp } = await newPage(
    browser,
    { watch: true, rows: opts.symbols.length },
    opts.reducedMotion ? { reducedMotion: 'reduce' } : {},
  );
  const errors: string[] = [];
  try {
    await cdp.send('Performance.enable', { timeDomain: 'timeTicks' });
    await page.goto(
      boardUrl(server.url, {
        symbols: opts.symbols,
        key: opts.key,
        base: server.url,
        attrs: opts.columns ? { columns: opts.columns } : {},
      }),
    );
    await until(
      `${opts.symbols.length} rows painted`,
      async () =>
        (await js<{ paintAt?: number }[]>(page, '__bench.times()'))[0]?.paintAt !== undefined ? true : undefined,
      20_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}; page errors: ${pageErrors(page).join(' | ') || 'none'}`);
    });
    // The stream must be open before pushing (events are not replayed to late subscribers).
    await until(
      'the board’s stream',
      async () => {
        const st = await server.call<SandboxStats>('/__sandbox/stats');
        return st.requests.some((r) => r.key === opts.key && r.path.startsWith('/v1/stream')) && st.openStreams > 0
          ? true
          : undefined;
      },
      10_000,
    );
    await sleep(1500); // chart chunk and history settle
    let columns: ColumnsCheck | undefined;
    if (opts.columns) {
      const asked = opts.columns.split(',').map((c) => c.trim());
      // Spark lines come after the rows (one history request per symbol): wait for them to settle (≤ 10 s).
      let last = -1;
      const cells = await until(
        'spark lines drawn',
        async () => {
          const c = await js<{ parts: string[]; sparks: number }>(page, CELLS);
          const settled = !asked.includes('spark') || c.sparks >= opts.symbols.length || c.sparks === last;
          last = c.sparks;
          return settled ? c : undefined;
        },
        10_000,
        1000,
      ).catch(() => js<{ parts: string[]; sparks: number }>(page, CELLS));
      const boardErrors = await js<{ code: string; message: string }[]>(page, '__bench.errors');
      columns = {
        asked: opts.columns,
        shown: asked.filter((c) => cells.parts.includes(c)),
        missing: asked.filter((c) => !cells.parts.includes(c)),
        sparks: cells.sparks,
        boardErrors: [...new Set(boardErrors.map((e) => `${e.code}: ${e.message}`))].slice(0, 5),
      };
    }

    const idle = await measureWindow(cdp, page, () => sleep(2000));

    const prices = new Map(
      quotesOf(await server.call(`/v1/prices?symbols=${opts.symbols.join(',')}`, { key: opts.pushKey })).map((q) => [
        q.symbol,
        q.price,
      ]),
    );
    const mismatches = async () => {
      const shown = await js<Record<string, string | null>>(
        page,
        `__bench.prices(document.querySelector('price-board'), ${JSON.stringify(opts.symbols)})`,
      );
      return opts.symbols.filter((s) => prices.has(s) && shown[s] !== prices.get(s)).length;
    };
    let push = { pushed: 0, pushWallMs: 0, pushErrors: [] as string[] };
    const load = await measureWindow(cdp, page, async () => {
      push = await pushLoad(server, opts, prices);
      // The last batches render inside the window: wait until the board shows every last price (≤ 3 s).
      await until('the last prices', async () => ((await mismatches()) === 0 ? true : undefined), 3_000, 50).catch(
        () => undefined,
      );
      await sleep(100);
    });
    const finalMismatches = await mismatches();
    errors.push(...pageErrors(page));
    return {
      reducedMotion: !!opts.reducedMotion,
      symbols: opts.symbols.length,
      pushed: push.pushed,
      pushRequests: Math.round((opts.seconds * 1000) / opts.everyMs),
      pushWallMs: push.pushWallMs,
      pushErrors: push.pushErrors.slice(0, 5),
      idle,
      load,
      finalMismatches,
      ...(columns ? { columns } : {}),
      errors,
    };
  } finally {
    await context.close();
  }
}
