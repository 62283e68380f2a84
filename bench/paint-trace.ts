/**
 * A DevTools timeline trace of one board's first paint (the `PAINT_SYMBOLS` board of bench/paint.ts
 * in a fresh context), and the landmarks of the page's main thread in it: what bench/trace.ts
 * prints and bench/cpu.ts sums.
 */
import type { Browser } from 'playwright';
import { boardUrl, js, newPage, patchStyles } from './browser';
import { PAINT_SYMBOLS } from './paint';
import { until } from './util';

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time. */
  tdur?: number;
  pid: number;
  tid: number;
  cat?: string;
  args?: {
    data?: { url?: string; requestId?: string; functionName?: string; type?: string; name?: string };
    name?: string;
    /** A style recalculation's restyled elements. */
    elementCount?: number;
  };
}

export interface PaintTraceOptions {
  /** The board's `api-key` (a new one per run: the sandbox's stats and caches stay apart). */
  key: string;
  chart: string;
  stream?: string;
  /** CPU throttling rate; 1 = none. */
  cpu: number;
  /** A style patch (`STYLE_PATCHES` in browser.ts). */
  patch?: string;
  categories: string[];
  /** The board's symbols (default `PAINT_SYMBOLS`). */
  symbols?: string[];
}

export interface PaintTrace {
  /** The trace as Chromium wrote it (JSON). */
  raw: Buffer;
  events: TraceEvent[];
  /** ms from navigation (`__bench.times()`): the element attached, its rows in the DOM, painted. */
  times: { attachAt: number; rowsAt: number; paintAt: number };
  /** The board's `/v1/prices` request. */
  send: TraceEvent;
  /** The renderer's main thread. */
  pid: number;
  mainTid: number;
  /** Navigation start (trace µs). */
  navTs: number;
}

/** Loads the board at `origin` (serving `base` too) with tracing on, until its rows painted. */
export async function tracePaint(browser: Browser, origin: string, o: PaintTraceOptions): Promise<PaintTrace> {
  const symbols = o.symbols ?? PAINT_SYMBOLS;
  const { context, page, cdp } = await newPage(browser, { watch: true, rows: symbols.length });
  await patchStyles(page, o.patch);
  if (o.cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: o.cpu });
  await browser.startTracing(page, { categories: o.categories });
  await page.goto(boardUrl(origin, { symbols, key: o.key, base: origin, chart: o.chart, stream: o.stream }));
  await until(
    'rows painted',
    async () => (await js<{ paintAt?: number }[]>(page, '__bench.times()'))[0]?.paintAt,
    15_000,
    20,
  );
  const times = (await js<PaintTrace['times'][]>(page, '__bench.times()'))[0]!;
  const raw = await browser.stopTracing();
  await context.close();
  const events = (JSON.parse(raw.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const send = events.find((e) => e.name === 'ResourceSendRequest' && String(e.args?.data?.url).includes('/v1/prices'));
  if (!send) throw new Error('the trace holds no /v1/prices request');
  const pid = send.pid;
  // The thread Chromium names so, else the busiest one of the renderer.
  const busiest = () => {
    const time = new Map<number, number>();
    for (const e of events)
      if (e.name === 'RunTask' && e.pid === pid) time.set(e.tid, (time.get(e.tid) ?? 0) + (e.dur ?? 0));
    return [...time].sort((a, b) => b[1] - a[1])[0]![0];
  };
  const mainTid =
    events.find((e) => e.name === 'thread_name' && e.pid === pid && e.args?.name === 'CrRendererMain')?.tid ??
    busiest();
  const navTs =
    events.find((e) => e.name === 'navigationStart' && e.pid === pid)?.ts ??
    events.find((e) => e.name === 'NavigationStartToLargestContentfulPaint::Start')?.ts ??
    0;
  return { raw, events, times, send, pid, mainTid, navTs };
}
