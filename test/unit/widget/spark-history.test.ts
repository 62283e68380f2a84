// The page's spark lines against a real sandbox: kept, refreshed hourly while shown, never asked
// again after a final failure, and not refreshed while no cell shows them. The clock is
// faked (`Date` and `setTimeout`: an hour is the subject); the HTTP is real.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SPARK_CONCURRENCY, SPARK_REFRESH_MS, SparkHistory } from '../../../src/widget/spark-history';
import { startTestSandbox, type TestSandbox } from '../api/sandbox-control';

let sandbox: TestSandbox;
/** `/v1/history/` requests handed to `fetch`, at the moment they are sent. */
let sent: string[] = [];
const realFetch = globalThis.fetch;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

/** History requests whose response has not come yet, and the most at once. */
let open = 0;
let most = 0;

beforeEach(() => {
  sent = [];
  [open, most] = [0, 0];
  globalThis.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!url.pathname.startsWith('/v1/history/')) return realFetch(input, init);
    sent.push(url.pathname + url.search);
    most = Math.max(most, ++open);
    try {
      return await realFetch(input, init);
    } finally {
      open--;
    }
  };
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(async () => {
  vi.useRealTimers();
  globalThis.fetch = realFetch;
  await sandbox.reset();
});

/** Watches `symbol` until its request ends; the unwatch function. */
function watchUntilChange(history: SparkHistory, symbol: string): Promise<() => void> {
  return new Promise((resolve) => {
    let unwatch = (): void => {};
    let changed = false;
    unwatch = history.watch(symbol, () => {
      if (!changed) resolve(unwatch);
      changed = true;
    });
  });
}

/** The next change of `symbol` for a watcher already in place. */
function nextChange(history: SparkHistory, symbol: string): Promise<void> {
  return new Promise((resolve) => {
    const unwatch = history.watch(symbol, () => {
      unwatch();
      resolve();
    });
  });
}

/**
 * Moves the clock `ms` on: nothing is sent until its last second, then one request, whose line
 * this awaits.
 */
async function untilRefetched(history: SparkHistory, symbol: string, ms: number): Promise<void> {
  const before = sent.length;
  vi.advanceTimersByTime(ms - 1000);
  expect(sent).toHaveLength(before);
  const changed = nextChange(history, symbol);
  vi.advanceTimersByTime(1000);
  expect(sent).toHaveLength(before + 1);
  await changed;
}

describe('SparkHistory', () => {
  it('fetches a shown line again an hour after it came, not before', async () => {
    const history = SparkHistory.for(sandbox.url, 'pro-key:spark-refresh');
    const unwatch = await watchUntilChange(history, 'usd');
    expect(sent).toEqual(['/v1/history/usd?days=7']);
    expect(history.line('usd')?.path).toMatch(/^M0 /);
    expect(sent).toHaveLength(1);
    await untilRefetched(history, 'usd', SPARK_REFRESH_MS);
    expect(sent).toHaveLength(2);
    expect(history.line('usd')).toBeDefined();
    unwatch();
  });

  it('one request for every watcher of a symbol, and none for a line already fetched', async () => {
    const history = SparkHistory.for(sandbox.url, 'pro-key:spark-once');
    const both = Promise.all([watchUntilChange(history, 'eur'), watchUntilChange(history, 'eur')]);
    const unwatches = await both;
    const third = history.watch('eur', () => {});
    expect(sent).toEqual(['/v1/history/eur?days=7']);
    for (const unwatch of [...unwatches, third]) unwatch();
  });

  it(`keeps at most ${SPARK_CONCURRENCY} requests in flight per service and key, the rest queued`, async () => {
    const history = SparkHistory.for(sandbox.url, 'pro-key:spark-queue');
    const symbols = ['usd', 'eur', 'gold_18', 'coin_emami', 'ons', 'silver_999'];
    const unwatches = await Promise.all(symbols.map((s) => watchUntilChange(history, s)));
    expect(sent.sort()).toEqual(symbols.map((s) => `/v1/history/${s}?days=7`).sort());
    expect(most).toBe(SPARK_CONCURRENCY);
    for (const s of symbols) expect(history.line(s), s).toBeDefined();
    for (const unwatch of unwatches) unwatch();
  });

  it('asks no more after a final failure (a symbol the service does not know)', async () => {
    const history = SparkHistory.for(sandbox.url, 'pro-key:spark-final');
    const unwatch = await watchUntilChange(history, 'no_such_symbol');
    expect(history.line('no_such_symbol')).toBeUndefined();
    vi.advanceTimersByTime(3 * SPARK_REFRESH_MS);
    const again = history.watch('no_such_symbol', () => {});
    expect(sent).toEqual(['/v1/history/no_such_symbol?days=7']);
    unwatch();
    again();
  });

  it('keeps the line when a refresh fails, and tries again no sooner than the Retry-After', async () => {
    const key = 'pro-key:spark-stale';
    const history = SparkHistory.for(sandbox.url, key);
    const unwatch = await watchUntilChange(history, 'gold_18');
    const line = history.line('gold_18');
    await sandbox.faults([{ path: '/v1/history', key, kind: 'rate_limit', retryAfter: 600, count: 1 }]);
    const failed = nextChange(history, 'gold_18');
    vi.advanceTimersByTime(SPARK_REFRESH_MS);
    await failed;
    expect(sent).toHaveLength(2);
    expect(history.line('gold_18')).toBe(line);
    await untilRefetched(history, 'gold_18', 600_000);
    expect(sent).toHaveLength(3);
    expect(history.line('gold_18')).toBeDefined();
    expect(history.line('gold_18')).not.toBe(line);
    unwatch();
  });

  it('runs nothing while no cell shows a line, and fetches a stale one at once when shown again', async () => {
    const history = SparkHistory.for(sandbox.url, 'pro-key:spark-idle');
    const unwatch = await watchUntilChange(history, 'coin_emami');
    unwatch();
    vi.advanceTimersByTime(2 * SPARK_REFRESH_MS);
    expect(sent).toHaveLength(1);
    const line = history.line('coin_emami');
    expect(line).toBeDefined();
    const back = await watchUntilChange(history, 'coin_emami');
    expect(sent).toHaveLength(2);
    back();
  });

  it('one instance per service and key', () => {
    expect(SparkHistory.for(sandbox.url, 'pro-key:a')).toBe(SparkHistory.for(sandbox.url, 'pro-key:a'));
    expect(SparkHistory.for(sandbox.url, 'pro-key:a')).not.toBe(SparkHistory.for(sandbox.url, 'pro-key:b'));
  });
});
