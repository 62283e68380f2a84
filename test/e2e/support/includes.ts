/**
 * What the include specs (a site's server putting the relay's fragments in its pages) share: the
 * recipes read from docs/examples (so the docs cannot drift from what is tested), the widgets as
 * includes, prices set in the relay's upstream, and a watch over a page from its first frame.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, persianGrouped } from './fixtures';
import type { RelayDoor } from './relay-door';

/** A recipe file of docs/examples, as a site owner copies it. */
export function recipe(name: string): Promise<string> {
  return readFile(new URL(`../../../docs/examples/${name}`, import.meta.url), 'utf8');
}

/** `text` with each `[from, to]` replaced once; throws when `from` is not there (the recipe changed). */
export function substitute(text: string, pairs: Array<[string, string]>): string {
  return pairs.reduce((out, [from, to]) => {
    if (!out.includes(from)) throw new Error(`the recipe no longer holds «${from}»`);
    return out.replace(from, to);
  }, text);
}

/** A widget included in a page: its query, and what shows its prices. */
export interface IncludedWidget {
  tag: 'price-board' | 'price-ticker' | 'price-converter';
  /** The include's query (the element's attributes). */
  query: Record<string, string>;
  /** Inside its shadow root: the cells that show a price. */
  cells: string;
  /** How many of them it shows. */
  count: number;
  /** The text a cell of `usd` shows when its price is `rial`. */
  usdText(rial: string): string;
  /** The cell of `usd`, inside its shadow root. */
  usdCell: string;
}

const toman = (rial: string): string => (BigInt(rial) / 10n).toString();

export const INCLUDED_WIDGETS: readonly IncludedWidget[] = [
  {
    tag: 'price-board',
    query: { symbols: 'usd,eur', chart: 'none' },
    cells: '[part~="row"] [part~="price"]',
    count: 2,
    usdText: (rial) => persianGrouped(toman(rial)),
    usdCell: '[part~="row"][data-symbol="usd"] [part~="price"]',
  },
  {
    tag: 'price-ticker',
    query: { symbols: 'usd,eur' },
    // The tape holds every item twice (its loop).
    cells: '[part~="item"] [part~="price"]',
    count: 4,
    usdText: (rial) => persianGrouped(toman(rial)),
    usdCell: '[part~="item"][data-symbol="usd"] [part~="price"]',
  },
  {
    tag: 'price-converter',
    query: { symbols: 'usd', amount: '2' },
    cells: '[part~="result"]',
    count: 1,
    usdText: (rial) => persianGrouped((BigInt(toman(rial)) * 2n).toString()),
    usdCell: '[part~="result"]',
  },
];

/** The query string of `query`. */
export const queryString = (query: Record<string, string>): string =>
  Object.entries(query)
    .map(([name, value]) => `${name}=${value}`)
    .join('&');

/** Sets `symbol`'s price (rial) in the relay's upstream and waits until the relay holds it. */
export async function setRelayPrice(
  sandboxUrl: string,
  relayUrl: string,
  symbol: string,
  price: string,
): Promise<void> {
  const answer = await fetch(`${sandboxUrl}/__sandbox/market`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ set: [{ symbol, price }] }),
  });
  if (!answer.ok) throw new Error(`sandbox market: ${answer.status}`);
  await expect
    .poll(async () => {
      const body = (await (await fetch(`${relayUrl}/v1/prices?symbols=${symbol}`)).json()) as {
        data: { quotes: Array<{ price: string }> };
      };
      return body.data.quotes[0]?.price;
    })
    .toBe(price);
}

/** What the page's widgets showed in each animation frame from its first, and its layout shifts. */
export interface FirstFrames {
  /** Per frame, per widget: `tag cells priced`; empty while no widget is parsed yet. */
  frames: string[][];
  /**
   * The layout shifts (none with recent input) while the page was still being parsed, each as
   * `value: moved boxes`: a page arriving in pieces paints what it has.
   */
  whileParsing: string[];
  /** The layout shifts after it was parsed: the widgets' takeover, and live updates. */
  afterParsing: string[];
}

/**
 * From the next navigation on, samples every animation frame of the main frame (as
 * test/browser/board-takeover.test.ts does): per widget of `widgets`, how many price cells its
 * shadow root holds and how many show a Persian digit; and records the page's layout shifts.
 * Returns a reader; `stop` ends the sampling.
 */
export async function watchFirstFrames(
  page: Page,
  widgets: readonly IncludedWidget[],
): Promise<(stop?: boolean) => Promise<FirstFrames>> {
  const cells = Object.fromEntries(widgets.map((w) => [w.tag, w.cells]));
  await page.addInitScript((cells: Record<string, string>) => {
    if (window !== window.top) return;
    type Box = { x: number; width: number; height: number };
    type Shift = PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
      sources: Array<{ previousRect: Box; currentRect: Box }>;
    };
    // A source's node is null inside a shadow root: its boxes say what moved.
    const box = (r: Box) => `${Math.round(r.x)}+${Math.round(r.width)}x${Math.round(r.height)}`;
    const frames: string[][] = [];
    const shifts: Array<{ at: number; text: string }> = [];
    let parsedAt = Infinity;
    // 'interactive': the parser is done, before any module script has run.
    document.addEventListener('readystatechange', () => {
      if (document.readyState === 'interactive') parsedAt = performance.now();
    });
    let sampling = true;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Shift[]) {
        if (entry.hadRecentInput) continue;
        const moved = entry.sources.map((s) => `${box(s.previousRect)} → ${box(s.currentRect)}`);
        shifts.push({ at: entry.startTime, text: `${entry.value.toFixed(4)}: ${moved.join(', ')}` });
      }
    }).observe({ type: 'layout-shift', buffered: true });
    const sample = () => {
      frames.push(
        [...document.querySelectorAll(Object.keys(cells).join(','))].map((el) => {
          const shown = [...(el.shadowRoot?.querySelectorAll(cells[el.localName]!) ?? [])];
          const priced = shown.filter((c) => /[۰-۹]/.test(c.textContent ?? '')).length;
          return `${el.localName} ${shown.length} ${priced}`;
        }),
      );
      if (sampling) requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
    (window as unknown as { __firstFrames: (stop: boolean) => FirstFrames }).__firstFrames = (stop) => {
      if (stop) sampling = false;
      return {
        frames,
        whileParsing: shifts.filter((s) => s.at < parsedAt).map((s) => s.text),
        afterParsing: shifts.filter((s) => s.at >= parsedAt).map((s) => s.text),
      };
    };
  }, cells);
  return (stop = false) =>
    page.evaluate(
      (stop) => (window as unknown as { __firstFrames: (stop: boolean) => FirstFrames }).__firstFrames(stop),
      stop,
    );
}

/**
 * The frames of `watched` in which `widget` showed a price cell without a price, or fewer cells
 * than it had shown before (its rows emptied); and a line when it never showed all its cells. A fragment still being parsed shows its first rows
 * before the others, as any HTML arriving in pieces; the ticker's tape may repeat its items.
 */
export function blankFrames(watched: FirstFrames, widget: IncludedWidget): string[] {
  let most = 0;
  const blank = watched.frames.flat().filter((shown) => {
    const [tag, cells, priced] = shown.split(' ');
    if (tag !== widget.tag) return false;
    most = Math.max(most, Number(cells));
    return priced !== cells || Number(cells) < Math.min(most, widget.count);
  });
  // A bare element (the include failed) shows no cells at all: not what these pages test.
  if (most < widget.count) blank.push(`${widget.tag}: never ${widget.count} cells`);
  return blank;
}

/** Counts the page's `/v1/prices` requests from now on; returns a reader. */
export function countPricesRequests(page: Page): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/v1/prices') count += 1;
  });
  return () => count;
}

/** Asks the relay for each widget's fragment once: a relay's first render loads its renderer. */
export async function warmRenderer(relayUrl: string): Promise<void> {
  for (const widget of INCLUDED_WIDGETS) {
    const answer = await fetch(`${relayUrl}/render/${widget.tag}?${queryString(widget.query)}&script=0`);
    if (!answer.ok) throw new Error(`${widget.tag} fragment: HTTP ${answer.status}`);
    await answer.text();
  }
}

/**
 * Opens `url` (a page including `widget`) with JavaScript, watching it from its first frame, and
 * waits until the element is on the stream; the frames are still sampled when it returns.
 */
export async function openLive(page: Page, url: string, widget: IncludedWidget) {
  const prices = countPricesRequests(page);
  const frames = await watchFirstFrames(page, [widget]);
  const stream = page.waitForRequest((request) => new URL(request.url()).pathname === '/v1/stream');
  await page.goto(url);
  await stream;
  await expect(page.locator(`${widget.tag}:defined`)).toHaveCount(1);
  await expect(page.locator(widget.tag)).toHaveJSProperty('status', 'live');
  return { frames, prices };
}

/**
 * Two visits of `url` in a row, each page holding a rendered widget: the first page, and how many
 * fragment requests reached the relay (through `door`) for both.
 */
export async function visitTwice(url: string, door: RelayDoor): Promise<{ first: string; renders: number }> {
  const before = door.renders;
  const pages = [await (await fetch(url)).text(), await (await fetch(url)).text()];
  for (const page of pages) expect(page).toContain('shadowrootmode="open"');
  return { first: pages[0]!, renders: door.renders - before };
}
