/**
 * What a real visitor sees: 10 rows painted from navigation start (page, module and prices
 * loaded), on this machine as it is, on a mid-range phone (4× CPU throttling, CDP Emulation.setCPUThrottlingRate) and on a
 * mobile network in Iran (150 ms added to every round trip, CDP Network.emulateNetworkConditions),
 * beside the floor: a hand-written page that makes one `fetch` of the same /v1/prices and one
 * `innerHTML` of the same rows (bench/pages/floor.html), measured in the same run, in turn with the
 * board. The verdict is the ratio to the floor.
 */
import type { Browser, CDPSession } from 'playwright';
import { boardUrl, js, newPage, pageErrors } from './browser';
import { PAINT_SYMBOLS } from './paint';
import type { BenchServer } from './server';
import { median, until } from './util';

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

export interface VisitorResult {
  condition: Condition;
  /** Median ms from navigation start to the rows painted: the board, and the floor page. */
  boardMs: number;
  floorMs: number;
  ratio: number;
  boardRuns: number[];
  floorRuns: number[];
  /** Medians from the board's connection (its upgrade) and from the floor's `fetch` call to the rows painted. */
  boardFromStartMs: number;
  floorFromStartMs: number;
  errors: string[];
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

/**
 * One page load; ms from navigation start to the task after the frame that shows the rows, and
 * from the start of the work (the board's connection, the floor's `fetch` call) to then.
 */
async function load(
  browser: Browser,
  server: BenchServer,
  c: Condition,
  floor: boolean,
  key: string,
  errors: string[],
): Promise<{ paintAt: number; fromStart: number }> {
  const { context, page, cdp } = await newPage(browser, { watch: !floor, rows: PAINT_SYMBOLS.length });
  try {
    await emulate(cdp, c);
    const q = { symbols: PAINT_SYMBOLS, key, base: server.url, chart: 'candles' };
    await page.goto(
      floor
        ? `${server.url}/bench/floor.html?${new URLSearchParams({ ...q, symbols: PAINT_SYMBOLS.join(',') })}`
        : boardUrl(server.url, q),
    );
    const probe = floor
      ? 'window.__floor && window.__floor.paintAt && window.__floor'
      : '__bench.times()[0] && __bench.times()[0].paintAt && __bench.times()[0]';
    type Marks = { paintAt: number; sentAt?: number; attachAt?: number };
    const t = await until(
      `${floor ? 'floor' : 'board'} rows painted`,
      async () => (await js<Marks | null | undefined>(page, probe)) || undefined,
      30_000,
      50,
    );
    errors.push(...pageErrors(page));
    return { paintAt: t.paintAt, fromStart: t.paintAt - (floor ? t.sentAt! : t.attachAt!) };
  } finally {
    await context.close();
  }
}

export async function runVisitor(
  browser: Browser,
  server: BenchServer,
  opts: { runs: number; keyPrefix: string },
): Promise<VisitorResult[]> {
  const out: VisitorResult[] = [];
  for (const [i, c] of CONDITIONS.entries()) {
    const board: number[] = [];
    const floor: number[] = [];
    const boardFromStart: number[] = [];
    const floorFromStart: number[] = [];
    const errors: string[] = [];
    // Alternating, so that the machine's load falls on both alike; the first pair warms up.
    for (let run = 0; run <= opts.runs; run++) {
      const key = `${opts.keyPrefix}-${i}-${run}`;
      const b = await load(browser, server, c, false, key, errors);
      const f = await load(browser, server, c, true, key, errors);
      if (run > 0) {
        board.push(b.paintAt);
        floor.push(f.paintAt);
        boardFromStart.push(b.fromStart);
        floorFromStart.push(f.fromStart);
      }
    }
    const boardMs = median(board);
    const floorMs = median(floor);
    out.push({
      condition: c,
      boardMs,
      floorMs,
      ratio: boardMs / floorMs,
      boardRuns: board,
      floorRuns: floor,
      boardFromStartMs: median(boardFromStart),
      floorFromStartMs: median(floorFromStart),
      errors,
    });
  }
  return out;
}
