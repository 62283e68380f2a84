/**
 * Memory: on one page (module loaded, no board at first),
 *   1. 1,000 mount/unmount cycles of a 10-symbol board (append, wait for its rows, one frame, remove),
 *      keys rotated over 10 suffixes so the enterprise rate limit (600/min per key) never interferes;
 *   2. one 170-symbol board receiving 100,000 stream `quote` events (pushed in batches through
 *      `/__sandbox/market {set}`), then removed.
 * Retained JS heap after forced GC (DevTools protocol), DOM counters, live <price-board> instances,
 * open streams at the sandbox and pending timers (patched timer functions) before and after.
 * Warm-up first (cycles, each key's chart drawn once, cycles again), so code, Intl caches, the chart
 * chunk, its drawing code and the history cache are there before the baseline.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, CDPSession } from 'playwright';
import { boardUrl, countInstances, domCounters, js, newPage, pageErrors, retainedHeap } from './browser';
import { PAINT_SYMBOLS } from './paint';
import type { BenchServer } from './server';
import { nudge, prng, quotesOf, sleep, until, type SandboxStats } from './util';

interface Snapshot {
  heap: number;
  nodes: number;
  listeners: number;
  boards: number | null;
  canvases: number | null;
  openStreams: number;
  timers: { pending: number; top: { site: string; count: number }[] };
}
export interface MemoryResults {
  /** Heap change over an idle second with the same GC procedure: the measurement's noise. */
  noiseBytes: number;
  warmup: Snapshot;
  midCycles: Snapshot;
  afterCycles: Snapshot;
  /** Heap growth per cycle over the second half of the cycles (bytes). */
  bytesPerCycle: number;
  cycles: { done: number; timeouts: number; ms: number; aborted: boolean };
  beforeEvents: Snapshot;
  afterEventsMounted: Snapshot;
  afterAll: Snapshot;
  events: { pushed: number; batches: number; pushMs: number; drainMs: number; finalMismatches: number };
  cyclesGrowth: number;
  eventsGrowth: number;
  totalGrowth: number;
  openStreamsBefore: number;
  errors: string[];
}

/**
 * BENCH_HEAPSNAPSHOTS=1 (a debugging aid): after each of the warm-up, after-cycles and after-all
 * measurements, a heap snapshot goes to bench/tmp/memory-<stage>.heapsnapshot (taken after the
 * heap figure, so it does not change it; open in DevTools or diff with bench/heap-diff.ts).
 */
const SNAPSHOTS = Boolean(process.env.BENCH_HEAPSNAPSHOTS);
async function saveHeapSnapshot(cdp: CDPSession, stage: string): Promise<void> {
  if (!SNAPSHOTS) return;
  const chunks: string[] = [];
  const onChunk = (e: { chunk: string }) => chunks.push(e.chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  try {
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false, captureNumericValue: false });
  } finally {
    cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  }
  writeFileSync(resolve(import.meta.dirname, 'tmp', `memory-${stage}.heapsnapshot`), chunks.join(''));
}

export async function runMemory(
  browser: Browser,
  server: BenchServer,
  opts: { cycles: number; events: number; batch: number; keyPrefix: string; liveSymbols: string[] },
): Promise<MemoryResults> {
  const { context, page, cdp } = await newPage(browser, { timers: true });
  const errors: string[] = [];
  const stats = () => server.call<SandboxStats>('/__sandbox/stats');
  const snap = async (): Promise<Snapshot> => {
    const heap = await retainedHeap(cdp);
    const dom = await domCounters(cdp);
    return {
      heap,
      nodes: dom.nodes,
      listeners: dom.jsEventListeners,
      boards: await countInstances(cdp, `customElements.get('price-board').prototype`),
      canvases: await countInstances(cdp, 'HTMLCanvasElement.prototype'),
      openStreams: (await stats()).openStreams,
      timers: await js(page, '__benchTimers()'),
    };
  };
  /** Streams close asynchronously (abort → socket close → server): give them a moment. */
  const streamsBackTo = async (n: number) =>
    until('streams closed', async () => ((await stats()).openStreams <= n ? true : undefined), 5_000, 100).catch(
      () => false,
    );

  try {
    const openStreamsBefore = (await stats()).openStreams;
    await page.goto(
      boardUrl(server.url, { symbols: PAINT_SYMBOLS, key: `${opts.keyPrefix}-0`, base: server.url, count: 0 }),
    );
    await page.evaluate(`customElements.whenDefined('price-board').then(function () { return true; })`);
    const keys = Array.from({ length: 10 }, (_, i) => `${opts.keyPrefix}-${i}`);
    const cycleOpts = (timeoutMs: number) =>
      JSON.stringify({
        symbols: PAINT_SYMBOLS.join(','),
        keys,
        base: server.url,
        chart: 'candles',
        rows: PAINT_SYMBOLS.length,
        timeoutMs,
        maxTimeouts: 20,
      });

    const warm = await js<MemoryResults['cycles']>(page, `__bench.cycles(20, ${cycleOpts(5000)})`);
    if (warm.timeouts > 0)
      throw new Error(
        `warm-up: ${warm.timeouts} of 20 boards showed no rows within 5 s; page errors: ${pageErrors(page).join(' | ') || 'none'}`,
      );
    // A board removed one frame after its rows draws candles only when its history came first.
    // The 20 cycles above may never do so; the 1,000 below do, often enough to compile and then
    // optimise lightweight-charts' drawing code, which the old procedure counted as growth
    // (heap snapshots at 8f96b44, BENCH_HEAPSNAPSHOTS=1 + bench/heap-diff.ts: 460-830 KB of the
    // growth was code of the chart chunk, 210 KB of it bytecode of functions first run after the
    // baseline). So the warm-up also keeps one board per key until its chart shows candles, then
    // runs 20 more cycles: the baseline has the code every cycle may use, and the growth is what
    // the boards keep. (The history sources' LRU, 8 keys of the 10 rotated, is full from here on.)
    const drawn = await js<number>(page, `__bench.drawCharts(${cycleOpts(5000)}, 10000)`);
    if (drawn < keys.length)
      throw new Error(
        `warm-up: only ${drawn} of ${keys.length} charts drew candles within 10 s; page errors: ${pageErrors(page).join(' | ') || 'none'}`,
      );
    const warm2 = await js<MemoryResults['cycles']>(page, `__bench.cycles(20, ${cycleOpts(5000)})`);
    if (warm2.timeouts > 0) throw new Error(`warm-up: ${warm2.timeouts} of 20 more boards showed no rows within 5 s`);
    await sleep(1000);
    await streamsBackTo(openStreamsBefore);
    const n0 = await retainedHeap(cdp);
    await sleep(1000);
    const n1 = await retainedHeap(cdp);
    const warmup = await snap();
    await saveHeapSnapshot(cdp, 'warmup');

    // Two halves: the growth of the second one is the per-cycle slope, free of one-time warm-up costs.
    const half = Math.floor(opts.cycles / 2);
    const first = await js<MemoryResults['cycles']>(page, `__bench.cycles(${half}, ${cycleOpts(3000)})`);
    await sleep(1000);
    await streamsBackTo(openStreamsBefore);
    const midCycles = await snap();
    const second = first.aborted
      ? { timeouts: 0, ms: 0, done: 0, aborted: true }
      : await js<MemoryResults['cycles']>(page, `__bench.cycles(${opts.cycles - half}, ${cycleOpts(3000)})`);
    const cycles = {
      timeouts: first.timeouts + second.timeouts,
      ms: first.ms + second.ms,
      done: first.done + second.done,
      aborted: first.aborted || second.aborted,
    };
    await sleep(1000);
    await streamsBackTo(openStreamsBefore);
    const afterCycles = await snap();
    await saveHeapSnapshot(cdp, 'after-cycles');

    // 100,000 stream events into one mounted 170-symbol board.
    const key = `${opts.keyPrefix}-events`;
    await js(
      page,
      `__bench.mount(${JSON.stringify({ symbols: opts.liveSymbols.join(','), 'api-key': key, 'base-url': server.url, chart: 'candles' })})`,
    );
    const ok = await js<boolean>(
      page,
      `__bench.waitRows(document.querySelector('price-board'), ${opts.liveSymbols.length}, 15000)`,
    );
    if (!ok) throw new Error('the 170-symbol board showed no rows');
    await until(
      'the board’s stream',
      async () =>
        (await stats()).requests.some((r) => r.key === key && r.path.startsWith('/v1/stream')) ? true : undefined,
      10_000,
    );
    await sleep(1500);
    const beforeEvents = await snap();

    const prices = new Map(
      quotesOf(
        await server.call(`/v1/prices?symbols=${opts.liveSymbols.join(',')}`, { key: `${opts.keyPrefix}-push` }),
      ).map((q) => [q.symbol, q.price]),
    );
    const rnd = prng(100_000);
    let clock = Date.now();
    let cursor = 0;
    let pushed = 0;
    let batches = 0;
    const t0 = performance.now();
    while (pushed < opts.events) {
      const set = [];
      for (let k = 0; k < opts.batch && pushed < opts.events; k++, pushed++) {
        const symbol = opts.liveSymbols[cursor++ % opts.liveSymbols.length]!;
        const price = nudge(prices.get(symbol) ?? '1000', rnd);
        prices.set(symbol, price);
        clock = Math.max(clock + 1, Date.now()); // strictly newer updated_at for every event
        set.push({ symbol, price, updated_at: new Date(clock).toISOString() });
      }
      await server.call('/__sandbox/market', { body: { set } });
      batches++;
      await sleep(40); // ~25k events/s: paced so the page, not the socket buffers, does the work
    }
    const pushMs = performance.now() - t0;
    const t1 = performance.now();
    const want = JSON.stringify(Object.fromEntries(prices));
    let finalMismatches = opts.liveSymbols.length;
    await until(
      'the last pushed prices on the board',
      async () => {
        const shown = await js<Record<string, string | null>>(
          page,
          `__bench.prices(document.querySelector('price-board'), ${JSON.stringify(opts.liveSymbols)})`,
        );
        const w = JSON.parse(want) as Record<string, string>;
        finalMismatches = Object.keys(w).filter((s) => shown[s] !== w[s]).length;
        return finalMismatches === 0 ? true : undefined;
      },
      30_000,
      200,
    ).catch(() => undefined);
    const drainMs = performance.now() - t1;
    await sleep(500);
    const afterEventsMounted = await snap();

    await js(page, '__bench.unmountAll()');
    await sleep(1000);
    await streamsBackTo(openStreamsBefore);
    await sleep(500);
    const afterAll = await snap();
    await saveHeapSnapshot(cdp, 'after-all');
    errors.push(...pageErrors(page));
    return {
      noiseBytes: n1 - n0,
      warmup,
      midCycles,
      afterCycles,
      bytesPerCycle: second.done ? (afterCycles.heap - midCycles.heap) / second.done : NaN,
      cycles,
      beforeEvents,
      afterEventsMounted,
      afterAll,
      events: { pushed, batches, pushMs, drainMs, finalMismatches },
      cyclesGrowth: afterCycles.heap - warmup.heap,
      eventsGrowth: afterEventsMounted.heap - beforeEvents.heap,
      totalGrowth: afterAll.heap - warmup.heap,
      openStreamsBefore,
      errors,
    };
  } finally {
    await context.close();
  }
}
