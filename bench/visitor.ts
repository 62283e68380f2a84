/**
 * What a real visitor sees, THE first-paint target of DESIGN.md §6: 10 rows painted from navigation
 * start (page, module and prices loaded), on this machine as it is, on a mid-range phone (4× CPU
 * throttling, CDP Emulation.setCPUThrottlingRate) and on a mobile network in Iran (150 ms added to
 * every round trip, CDP Network.emulateNetworkConditions), beside the floor: a hand-written page
 * that makes one `fetch` of the same /v1/prices and one `innerHTML` of the same rows
 * (bench/pages/floor.html), measured in the same run. The verdict is the ratio of the medians.
 * Beside them, for information, the markup floor (`withMarkupFloor`): the board's own DOM and styles
 * written the floor's way.
 *
 * These times are noisy on a small shared machine (one floor load takes twice another's), so the
 * runs are interleaved: round after round, every condition, each page in turn (the order
 * rotating), so that whatever else the machine does falls on every page alike; the medians are
 * reported with their interquartile ranges, and the spread of the per-round ratios.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, CDPSession } from 'playwright';
import { boardUrl, gotoPainted, js, newPage, pageErrors, type PaintMarks } from './browser';
import { PAINT_SYMBOLS } from './paint';
import type { BenchServer } from './server';
import { spread, type Spread } from './util';

export interface Condition {
  name: string;
  /** CPU slow-down factor (1 = none). */
  cpu: number;
  /** Added round-trip latency, ms. */
  latencyMs: number;
}
export const CONDITIONS: Condition[] = [
  { name: 'no throttling', cpu: 1, latencyMs: 0 },
  { name: '4× CPU throttling (mid-range phone)', cpu: 4, latencyMs: 0 },
  { name: '+150 ms round trip (mobile network in Iran)', cpu: 1, latencyMs: 150 },
];
/** DESIGN.md §6: the board's first paint from navigation start ≤ 1.2 × the floor's, in each condition. */
export const FLOOR_RATIO_TARGET = 1.2;

export interface VisitorResult {
  condition: Condition;
  /** Median ms from navigation start to the rows painted: the board, and the floor page. */
  boardMs: number;
  floorMs: number;
  /** boardMs / floorMs: the verdict's figure. */
  ratio: number;
  board: Spread;
  floor: Spread;
  /** Board ÷ floor of each round (the two loads next to each other in time). */
  pairRatio: Spread;
  boardRuns: number[];
  floorRuns: number[];
  /** Medians from the board's connection (its upgrade) and from the floor's `fetch` call to the rows painted. */
  boardFromStartMs: number;
  floorFromStartMs: number;
  /** Where counted (the keyless relay): `/v1/prices` requests the server received per board load. */
  pricesPerBoardLoad?: number[];
  /** The markup floor (`withMarkupFloor`), where measured: its loads, and its median over the floor's. */
  markup?: { runs: number[]; spread: Spread; ratio: number };
  /** The page that includes the relay's rendered board (bench/rendered.ts), where measured. */
  rendered?: RenderedResult;
  errors: string[];
}

/** What the probe saw of a rendered board from its rows painted to live (`__bench.whenLive()`). */
export interface TakeoverMarks {
  /** Both done: the element's first render over the server's nodes, and its stream's response. */
  liveAt?: number;
  tookOverAt?: number;
  streamAt?: number;
  /** Layout shifts after the frame that paints the rows, to live (null: not observable). */
  cls: number | null;
  /** Layout shifts in the frame that paints the rows (against frames before it that showed part of them). */
  clsRowsFrame: number | null;
  /** The first shifts from the rows in the DOM: when, how much, and what moved (node, rect before → after). */
  shifts: { at: number; value: number; sources: string[] }[];
  /** Frames before the rows' that showed some rows, not yet the 10 with prices (the fragment partly parsed). */
  partialFrames: number;
  /** When the element was defined (its module run), the rows in the DOM, and painted. */
  definedAt?: number;
  rowsAt?: number;
  paintAt?: number;
  /** Frames (rAF) and mutation batches in which fewer than the 10 rows showed a price. */
  blankFrames: number;
  blankBatches: number;
  frames: number;
  /** `price-board-status` events seen. */
  statuses: string[];
}

export interface RenderedResult {
  runs: number[];
  spread: Spread;
  /** Its median over the floor's: the verdict's figure. */
  ratio: number;
  pairRatio: Spread;
  /** Median ms from the element parsed (its declarative root first seen) to the rows painted. */
  fromParsedMs: number;
  /** `/v1/prices` requests at the relay per load (navigation to the closed context). */
  prices: number[];
  takeover: TakeoverMarks[];
}

/** The pages of a comparison, for one run's key (a fresh key per run: nothing cached by key). */
export interface PagePair {
  board(key: string): string;
  floor(key: string): string;
  /** The markup floor page (`withMarkupFloor`), loaded in each round beside the other two. */
  markup?(key: string): string;
  /** The page including the relay's rendered board (`withRendered`), loaded in each round beside the others. */
  rendered?(key: string): string;
  /** `/v1/prices` requests received so far by the service the pages use (when it can be counted). */
  pricesCount?: () => number;
  /** `/v1/prices` requests received so far by the relay that renders the board. */
  relayPricesCount?: () => number;
}

/** The board page (bench/pages/board.html) and the floor page on the bench server, keyed, same origin. */
export function keyedPages(server: BenchServer): PagePair {
  return {
    board: (key) => boardUrl(server.url, { symbols: PAINT_SYMBOLS, key, base: server.url, chart: 'candles' }),
    floor: (key) =>
      `${server.url}/bench/floor.html?${new URLSearchParams({ symbols: PAINT_SYMBOLS.join(','), key, base: server.url })}`,
  };
}

/**
 * Adds the markup floor to `pages`: the board's own DOM and style sheets as its rows first show,
 * taken from one load of the board page (this build, this run), written by the floor page's
 * script instead of its own rows: the same fetch, then one shadow root adopting those sheets and
 * one innerHTML (bench/pages/floor.js). What the board's markup and styles cost with none of its
 * JavaScript: the board's time beyond it is the element's (module, Lit, data path).
 */
export async function withMarkupFloor(browser: Browser, server: BenchServer, pages: PagePair): Promise<PagePair> {
  const { context, page } = await newPage(browser, { watch: true, rows: PAINT_SYMBOLS.length, snapshot: true });
  try {
    await gotoPainted(page, pages.board('enterprise-key:bench-markup'), 30_000);
    const markup = await js<{ html: string; sheets: string[] } | undefined>(page, '__bench.markup');
    if (!markup?.html.includes('part="row"')) throw new Error('markup floor: the board showed no rows to copy');
    const floor = (name: string) => readFileSync(resolve(import.meta.dirname, 'pages', name), 'utf8');
    server.serve('markup.html', floor('floor.html').replace('src="floor.js"', 'src="markup.js"'));
    server.serve('markup.js', `window.__MARKUP = ${JSON.stringify(markup)};\n${floor('floor.js')}`);
  } finally {
    await context.close();
  }
  return {
    ...pages,
    markup: (key) =>
      `${server.url}/bench/markup.html?${new URLSearchParams({ symbols: PAINT_SYMBOLS.join(','), key, base: server.url })}`,
  };
}

async function emulate(cdp: CDPSession, c: Condition): Promise<void> {
  if (c.cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: c.cpu });
  if (c.latencyMs > 0) {
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: c.latencyMs,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
  }
}

interface Load {
  paintAt: number;
  fromStart: number;
  prices?: number;
  takeover?: TakeoverMarks;
}

type Kind = 'board' | 'floor' | 'markup' | 'rendered';
/** How long a rendered board may take from its rows painted to live. */
const LIVE_TIMEOUT_MS = 15_000;

/**
 * One page load in a fresh context (empty cache); ms from navigation start to the task after the
 * frame that shows the rows, and from the start of the work (the board's connection, the floor's
 * `fetch` call) to then.
 */
async function load(
  browser: Browser,
  pages: PagePair,
  c: Condition,
  kind: Kind,
  key: string,
  errors: string[],
): Promise<Load> {
  const board = kind === 'board' || kind === 'rendered';
  const rendered = kind === 'rendered';
  const { context, page, cdp } = await newPage(browser, {
    watch: board,
    rows: PAINT_SYMBOLS.length,
    takeover: rendered,
  });
  const count = rendered ? pages.relayPricesCount : pages.pricesCount;
  const before = count?.();
  let t: PaintMarks;
  let takeover: TakeoverMarks | undefined;
  try {
    await emulate(cdp, c);
    t = await gotoPainted(page, pages[kind]!(key), 30_000);
    if (rendered) takeover = await js<TakeoverMarks>(page, `__bench.whenLive(${LIVE_TIMEOUT_MS})`);
    errors.push(...pageErrors(page).map((e) => `${kind}: ${e}`));
  } finally {
    await context.close();
  }
  const start = board ? t.attachAt : t.sentAt;
  return {
    paintAt: t.paintAt,
    fromStart: t.paintAt - (start ?? NaN),
    prices: before === undefined ? undefined : count!() - before,
    ...(takeover ? { takeover } : {}),
  };
}

/**
 * `runs` measured rounds after one warm-up round; a round loads, for each condition, the board
 * page, the floor page and the markup floor where given (which first rotates), each in a fresh
 * context.
 */
export async function runVisitor(
  browser: Browser,
  pages: PagePair,
  opts: { runs: number; keyPrefix: string; conditions?: Condition[] },
): Promise<VisitorResult[]> {
  const conditions = opts.conditions ?? CONDITIONS;
  const kinds: Kind[] = ['board', 'floor'];
  if (pages.markup) kinds.push('markup');
  if (pages.rendered) kinds.push('rendered');
  const acc = conditions.map(() => ({
    board: [] as Load[],
    floor: [] as Load[],
    markup: [] as Load[],
    rendered: [] as Load[],
    errors: [] as string[],
  }));
  for (let round = 0; round <= opts.runs; round++) {
    for (const [i, c] of conditions.entries()) {
      const key = `${opts.keyPrefix}-${i}-${round}`;
      const a = acc[i]!;
      const first = (round + i) % kinds.length;
      for (let k = 0; k < kinds.length; k++) {
        const kind = kinds[(first + k) % kinds.length]!;
        const l = await load(browser, pages, c, kind, key, a.errors);
        if (round > 0) a[kind].push(l); // round 0: warm-up
      }
    }
  }
  return conditions.map((condition, i) => {
    const { board, floor, markup, rendered, errors } = acc[i]!;
    const boardRuns = board.map((l) => l.paintAt);
    const floorRuns = floor.map((l) => l.paintAt);
    const b = spread(boardRuns);
    const f = spread(floorRuns);
    const prices = board.map((l) => l.prices).filter((n): n is number => n !== undefined);
    const markupRuns = markup.map((l) => l.paintAt);
    const m = spread(markupRuns);
    return {
      condition,
      boardMs: b.median,
      floorMs: f.median,
      ratio: b.median / f.median,
      board: b,
      floor: f,
      pairRatio: spread(boardRuns.map((x, k) => x / floorRuns[k]!)),
      boardRuns,
      floorRuns,
      boardFromStartMs: spread(board.map((l) => l.fromStart)).median,
      floorFromStartMs: spread(floor.map((l) => l.fromStart)).median,
      ...(prices.length ? { pricesPerBoardLoad: prices } : {}),
      ...(markup.length
        ? {
            markup: { runs: markupRuns, spread: m, ratio: m.median / f.median },
          }
        : {}),
      ...(rendered.length ? { rendered: renderedResult(rendered, floorRuns) } : {}),
      errors: [...new Set(errors)].slice(0, 10),
    };
  });
}

function renderedResult(loads: Load[], floorRuns: number[]): RenderedResult {
  const runs = loads.map((l) => l.paintAt);
  const r = spread(runs);
  return {
    runs,
    spread: r,
    ratio: r.median / spread(floorRuns).median,
    pairRatio: spread(runs.map((x, k) => x / floorRuns[k]!)),
    fromParsedMs: spread(loads.map((l) => l.fromStart)).median,
    prices: loads.map((l) => l.prices ?? NaN),
    takeover: loads.map((l) => l.takeover!),
  };
}
