/**
 * The widgets of DESIGN.md §8 in the §6 targets: what `dist/price-ticker.js` and
 * `dist/price-converter.js` add on top of what they share with `dist/price-board.js` (gzip -9,
 * static graphs), and the ticker under the live load (170 symbols, 200 updates/s for 10 s): long
 * tasks and layouts against the animation frames, beside the same figures with no load.
 */
import { resolve } from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright';
import { js, newPage, pageErrors, perfMetrics } from './browser';
import { pushLoad, type LoadOptions } from './live';
import type { BenchServer } from './server';
import { measureEntry, sizeOf, type GraphSize } from './module-graph';
import { quotesOf, sleep, until, type SandboxStats } from './util';

export interface WidgetSizes {
  board: GraphSize;
  /** Each widget's static graph minus the board's. */
  ticker: GraphSize;
  converter: GraphSize;
}

export function runWidgetSizes(dist: string): WidgetSizes {
  const graph = (entry: string) => measureEntry(resolve(dist, entry), dist).initial;
  const board = graph('price-board.js');
  const shared = new Set(board.files.map((f) => f.file));
  const extra = (entry: string) =>
    sizeOf(
      graph(entry)
        .files.filter((f) => !shared.has(f.file))
        .map((f) => resolve(dist, f.file)),
      dist,
    );
  return { board, ticker: extra('price-ticker.js'), converter: extra('price-converter.js') };
}

export interface TickerWindow {
  seconds: number;
  frames: number;
  layouts: number;
  longTasks: number;
  longTaskMaxMs: number;
  /** The tape's animation was running at the end of the window (not restarted, not stopped). */
  running: boolean;
  /** Times the tape's Animation object was replaced during the window (a re-measure). */
  restarts: number;
  /** Main-thread time per second of the window (CDP Performance metrics). */
  scriptMsPerSec: number;
  styleMsPerSec: number;
  layoutMsPerSec: number;
}
export interface TickerLiveResults {
  symbols: number;
  pushed: number;
  idle: TickerWindow;
  load: TickerWindow;
  errors: string[];
}

// In the page: frames, long tasks and the tape's animation over a window.
const PROBE = `(() => {
  const w = window;
  if (w.__ticker) return;
  const s = { frames: 0, long: [], on: false, anim: null, restarts: 0 };
  new PerformanceObserver((l) => { if (s.on) for (const e of l.getEntries()) s.long.push(e.duration); }).observe({ type: 'longtask', buffered: false });
  const track = () => document.querySelector('price-ticker')?.shadowRoot?.querySelector('.track');
  const frame = () => {
    if (s.on) {
      s.frames++;
      const a = track()?.getAnimations()[0] ?? null;
      if (a !== s.anim) { if (s.anim) s.restarts++; s.anim = a; }
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  w.__ticker = {
    start() { Object.assign(s, { frames: 0, long: [], on: true, anim: track()?.getAnimations()[0] ?? null, restarts: 0 }); },
    stop() {
      s.on = false;
      return { frames: s.frames, longTasks: s.long.length, longTaskMaxMs: Math.max(0, ...s.long), restarts: s.restarts,
        running: track()?.getAnimations()[0]?.playState === 'running' };
    },
  };
})()`;

async function measure(page: Page, cdp: CDPSession, body: () => Promise<void>): Promise<TickerWindow> {
  await js(page, `(${PROBE}, __ticker.start())`);
  const m0 = await perfMetrics(cdp);
  const t0 = Date.now();
  await body();
  const m1 = await perfMetrics(cdp);
  const r = await js<Pick<TickerWindow, 'frames' | 'longTasks' | 'longTaskMaxMs' | 'running' | 'restarts'>>(
    page,
    '__ticker.stop()',
  );
  const seconds = (Date.now() - t0) / 1000;
  const perSec = (k: string) => (((m1[k] ?? 0) - (m0[k] ?? 0)) * 1000) / seconds;
  return {
    ...r,
    seconds,
    layouts: (m1.LayoutCount ?? 0) - (m0.LayoutCount ?? 0),
    scriptMsPerSec: perSec('ScriptDuration'),
    styleMsPerSec: perSec('RecalcStyleDuration'),
    layoutMsPerSec: perSec('LayoutDuration'),
  };
}

export async function runTickerLive(
  browser: Browser,
  server: BenchServer,
  opts: LoadOptions & { key: string; pushKey: string },
): Promise<TickerLiveResults> {
  const { context, page, cdp } = await newPage(browser, {});
  try {
    await cdp.send('Performance.enable', { timeDomain: 'timeTicks' });
    const q = new URLSearchParams({ dist: '/dist', symbols: opts.symbols.join(','), key: opts.key, base: server.url });
    await page.goto(`${server.url}/bench/ticker.html?${q}`);
    await until(
      'the ticker’s prices and stream',
      async () => {
        const st = await server.call<SandboxStats>('/__sandbox/stats');
        const streaming =
          st.requests.some((r) => r.key === opts.key && r.path.startsWith('/v1/stream')) && st.openStreams > 0;
        const shown = await js<number>(page, `document.querySelector('price-ticker')?.quotes.size ?? 0`);
        return streaming && shown === opts.symbols.length ? true : undefined;
      },
      20_000,
    );
    await sleep(500);
    const idle = await measure(page, cdp, () => sleep(2000));
    const prices = new Map(
      quotesOf(await server.call(`/v1/prices?symbols=${opts.symbols.join(',')}`, { key: opts.pushKey })).map((x) => [
        x.symbol,
        x.price,
      ]),
    );
    let pushed = 0;
    const load = await measure(page, cdp, async () => {
      pushed = (await pushLoad(server, opts, prices)).pushed;
    });
    return { symbols: opts.symbols.length, pushed, idle, load, errors: pageErrors(page) };
  } finally {
    await context.close();
  }
}
