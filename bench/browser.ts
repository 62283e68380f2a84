/** Chromium for the bench: Debian's build with the project's flags, pages with the in-page probe. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type CDPSession,
  type Page,
} from 'playwright';
import { chromiumPath, CHROMIUM_ARGS } from '../scripts/chromium.mjs';

const PAGES = resolve(import.meta.dirname, 'pages');
/** The in-page probe: its core (probe.js) and the pieces that use it, in one init script. */
const PROBE = ['probe.js', 'probe-chart.js', 'probe-live.js', 'probe-memory.js']
  .map((file) => readFileSync(resolve(PAGES, file), 'utf8'))
  .join('\n');
const TIMERS = readFileSync(resolve(PAGES, 'timers.js'), 'utf8');

export async function launchBrowser(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath)
    throw new Error('No Chromium found: run `node scripts/ensure-chromium.mjs` or set CHROMIUM_PATH');
  return chromium.launch({
    executablePath,
    // BENCH_JS_FLAGS (a debugging aid): more V8 flags, e.g. `--no-flush-bytecode --no-maglev`.
    args: [
      ...CHROMIUM_ARGS,
      '--enable-precise-memory-info',
      `--js-flags=--expose-gc${process.env.BENCH_JS_FLAGS ? ` ${process.env.BENCH_JS_FLAGS}` : ''}`,
    ],
  });
}

export interface ProbeConfig {
  /** Watch every <price-board> from its attachShadow for rows with prices, then a frame. */
  watch?: boolean;
  /** Rows with prices that count as "rows painted". */
  rows?: number;
  /** After the rows, poll the chart canvas each frame for candles. */
  chartWatch?: boolean;
  /** Patch the timer functions to count pending timers. */
  timers?: boolean;
  /** Keep the first board's DOM and style sheets as its rows first show (`__bench.markup`). */
  snapshot?: boolean;
  /**
   * A relay's rendered board (declarative shadow root): watch it as parsed, and from its rows
   * painted to live count blank frames and layout shifts (`__bench.whenLive()`).
   */
  takeover?: boolean;
}

/** A fresh context (empty cache) with the board's locale and time zone, and the probe installed. */
export async function newPage(
  browser: Browser,
  cfg: ProbeConfig,
  contextOptions: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession }> {
  const context = await browser.newContext({
    locale: 'fa-IR',
    timezoneId: 'Asia/Tehran',
    viewport: { width: 1000, height: 800 },
    ...contextOptions,
  });
  const page = await probedPage(context, cfg);
  const cdp = await context.newCDPSession(page);
  return { context, page, cdp };
}

/** A new page (a tab) of `context` with the probe installed. */
export async function probedPage(context: BrowserContext, cfg: ProbeConfig): Promise<Page> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  (page as Page & { benchErrors?: string[] }).benchErrors = errors;
  await page.addInitScript({ content: `window.__BENCH_CFG=${JSON.stringify(cfg)};\n${PROBE}` });
  if (cfg.timers) await page.addInitScript({ content: TIMERS });
  return page;
}

/** Marks of the first rows painted (the first board's, or the floor page's): `__bench.whenPainted()`. */
export interface PaintMarks {
  paintAt: number;
  rowsAt?: number;
  frameAt?: number;
  /** A board's connection (upgrade). */
  attachAt?: number;
  /** The floor's `fetch` call. */
  sentAt?: number;
}

/**
 * Navigates and waits for the first rows painted without polling the page: one call awaits the
 * probe's promise (the page runs nothing of the bench's meanwhile). Throws after `timeoutMs`.
 */
export async function gotoPainted(page: Page, url: string, timeoutMs: number): Promise<PaintMarks> {
  await page.goto(url, { waitUntil: 'commit' });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(
      () =>
        fail(
          new Error(
            `timed out after ${timeoutMs} ms waiting for rows painted; page errors: ${pageErrors(page).join(' | ') || 'none'}`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([js<PaintMarks>(page, '__bench.whenPainted()'), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Uncaught page errors so far, each once with its count. */
export function pageErrors(page: Page): string[] {
  const counts = new Map<string, number>();
  for (const e of (page as Page & { benchErrors?: string[] }).benchErrors ?? [])
    counts.set(e, (counts.get(e) ?? 0) + 1);
  return [...counts].map(([e, n]) => (n > 1 ? `${e} (×${n})` : e)).slice(0, 10);
}

export function boardUrl(
  origin: string,
  params: {
    symbols: string[];
    key: string;
    base: string;
    chart?: string;
    stream?: string;
    count?: number;
    /** More attributes of the board(s), set before the element is defined (bench/pages/clone.js). */
    attrs?: Record<string, string>;
  },
): string {
  const q = new URLSearchParams({
    dist: '/dist',
    symbols: params.symbols.join(','),
    key: params.key,
    base: params.base,
    chart: params.chart ?? 'candles',
    stream: params.stream ?? 'auto',
    count: String(params.count ?? 1),
  });
  const attrs = Object.entries(params.attrs ?? {});
  for (const [name, value] of attrs) q.set(`attr-${name}`, value);
  // One board and no more attributes: the page is the README's snippet, no other script (a classic
  // script in the body would hold the module back until it has loaded and run).
  const page = (params.count ?? 1) === 1 && attrs.length === 0 ? 'board' : 'boards';
  return `${origin}/bench/${page}.html?${q}`;
}

/** Evaluates `expr` (an expression over `window.__bench`) in the page; JSON arguments inline. */
export function js<T>(page: Page, expr: string): Promise<T> {
  return page.evaluate(expr) as Promise<T>;
}

/** Retained JS heap after forced garbage collection. */
export async function retainedHeap(cdp: CDPSession): Promise<number> {
  for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return usedSize;
}

export async function domCounters(
  cdp: CDPSession,
): Promise<{ documents: number; nodes: number; jsEventListeners: number }> {
  return cdp.send('Memory.getDOMCounters');
}

/** Live objects whose prototype is `prototypeExpr` (e.g. the element's class prototype), after a GC. */
export async function countInstances(cdp: CDPSession, prototypeExpr: string): Promise<number | null> {
  const proto = await cdp.send('Runtime.evaluate', { expression: prototypeExpr });
  if (!proto.result.objectId) return null;
  const { objects } = await cdp.send('Runtime.queryObjects', { prototypeObjectId: proto.result.objectId });
  const len = await cdp.send('Runtime.callFunctionOn', {
    objectId: objects.objectId!,
    functionDeclaration: 'function () { return this.length; }',
    returnByValue: true,
  });
  await cdp.send('Runtime.releaseObject', { objectId: objects.objectId! });
  await cdp.send('Runtime.releaseObject', { objectId: proto.result.objectId });
  return len.result.value as number;
}

export async function perfMetrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
}

/**
 * Text replacements in the widgets' adopted style sheets, to price a style rule without a rebuild
 * (`bench/ab.ts`, `bench/trace.ts`, `bench/cpu.ts`; debugging aids): the sheets' text is replaced as Lit
 * adopts it. `sysui` and `sans` replace the default font stack (`--_font`).
 */
export const STYLE_PATCHES: Record<string, [string, string][]> = {
  nosizer: [['content:attr(data-w)', 'content:none']],
  nocontainer: [['container:price-board / inline-size', 'container-type:normal']],
  noclamp: [['display:-webkit-box', 'display:block']],
  nogrid: [['display:grid', 'display:flex']],
  font: [['font-family:var(--_font)', 'font-family:sans-serif']],
  sysui: [["Vazirmatn,Vazir,Tahoma,'Segoe UI',system-ui,sans-serif", 'system-ui,sans-serif']],
  sans: [["Vazirmatn,Vazir,Tahoma,'Segoe UI',system-ui,sans-serif", 'sans-serif']],
  nohostbefore: [['font:16px/0 sans-serif', 'display:none']],
  sheetblock: [['.sheet{display:flex;flex-direction:column;', '.sheet{']],
  cvall: [['.rows .row:nth-child(n + 21){content-visibility:auto', '.rows .row{content-visibility:auto']],
  rowcontain: [['.rows .row{cursor:pointer;', '.rows .row{contain:layout style paint;cursor:pointer;']],
  vib: [['.value{unicode-bidi:isolate}', '.value{unicode-bidi:isolate;display:inline-block}']],
  nosparksvg: [['[part~=spark] svg{display:block;', '[part~=spark] svg{display:none;']],
  cv11: [['nth-child(n + 21)', 'nth-child(n + 11)']],
};

/** Applies `STYLE_PATCHES[name]` to every page load of `page` (no name: nothing). */
export async function patchStyles(page: Page, name: string | undefined): Promise<void> {
  if (!name) return;
  const patch = STYLE_PATCHES[name];
  if (!patch) throw new Error(`No style patch "${name}": ${Object.keys(STYLE_PATCHES).join(', ')}`);
  await page.addInitScript({
    content: `(() => { const P = ${JSON.stringify(patch)}; const real = CSSStyleSheet.prototype.replaceSync; CSSStyleSheet.prototype.replaceSync = function (t) { for (const [a, b] of P) t = t.split(a).join(b); return real.call(this, t); }; })();`,
  });
}
