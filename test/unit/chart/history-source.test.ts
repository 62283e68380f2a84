import { describe, expect, it } from 'vitest';
import { loadHistory, sourceFor, tradedCandles } from '../../../src/chart/history-source';
import type { PriceClient } from '../../../src/api/client';

// The history sources and their caches are the only data of the board's that a page keeps once
// every board is gone (bench memory section: about 30 KB with 10 keys rotated). They must stay
// bounded however many keys and symbols the page's boards used.

/** A source whose client answers every history request with one point an hour ago. */
function stubbed(key: string) {
  const source = sourceFor('https://svc.test', key);
  let calls = 0;
  source.client = {
    history: async () => {
      calls++;
      return [{ t: Math.floor(Date.now() / 1000) - 3600, price: 100 }];
    },
  } as unknown as PriceClient;
  return { source, calls: () => calls };
}

describe('history sources: bounded', () => {
  it('keeps at most 8 sources, letting the least recently used go', () => {
    const first = sourceFor('https://svc.test', 'lru-0');
    for (let i = 1; i <= 7; i++) sourceFor('https://svc.test', `lru-${i}`);
    expect(sourceFor('https://svc.test', 'lru-0')).toBe(first); // 8 sources: all kept (lru-0 now the newest)
    for (let i = 1; i <= 8; i++) sourceFor('https://svc.test', `lru-new-${i}`);
    expect(sourceFor('https://svc.test', 'lru-0')).not.toBe(first); // 8 others used since: let go
  });

  it('caches at most 12 spans per source, and a cached span is not asked for again', async () => {
    const { source, calls } = stubbed('cache-bound');
    const signal = new AbortController().signal;
    for (let i = 0; i < 50; i++) await loadHistory(source, `sym_${i}`, 7, signal);
    expect(calls()).toBe(50);
    expect(source.cache.size).toBe(12);
    await loadHistory(source, 'sym_49', 7, signal);
    expect(calls()).toBe(50);
    await loadHistory(source, 'sym_0', 7, signal);
    expect(calls()).toBe(51);
    expect(source.cache.size).toBe(12);
  });
});

describe('tradedCandles', () => {
  const candle = (time: number, open: number, high: number, low: number, close: number) => ({
    time,
    open,
    high,
    low,
    close,
  });
  it('leaves out the flat candles of a closed market, the first one too when the span starts in it', () => {
    const night = candle(0, 100, 100, 100, 100);
    const night2 = candle(3600, 100, 100, 100, 100);
    const open = candle(7200, 100, 104, 99, 103);
    const quiet = candle(10_800, 103, 103, 103, 103);
    const next = candle(14_400, 103, 105, 101, 102);
    expect(tradedCandles([night, night2, open, quiet, next])).toEqual([open, next]);
    // A first candle that traded, or a flat one the next does not open at, stays.
    const moved = candle(0, 98, 101, 97, 100);
    expect(tradedCandles([moved, open])).toEqual([moved, open]);
    const gapped = candle(0, 95, 95, 95, 95);
    expect(tradedCandles([gapped, open])).toEqual([gapped, open]);
    expect(tradedCandles([night])).toEqual([night]);
  });

  it('keeps the last candle of a span all in a closed market (today on a Friday night): the price that stands', () => {
    const flat = (time: number) => candle(time, 100, 100, 100, 100);
    expect(tradedCandles([flat(0), flat(3600), flat(7200)])).toEqual([flat(7200)]);
    expect(tradedCandles([])).toEqual([]);
  });
});

describe('history from a service whose market closes (the sandbox: 09:00–23:00 Tehran, not on Fridays)', () => {
  it('a 7-day chart has no candle where nothing traded: nights and Fridays are left out, not drawn flat', async () => {
    const { startTestSandbox } = await import('../api/sandbox-control');
    const sandbox = await startTestSandbox();
    try {
      const source = sourceFor(sandbox.url, 'pro-key:closed-hours');
      const { candles, days } = await loadHistory(source, 'usd', 7, new AbortController().signal);
      expect(days).toBe(7);
      expect(candles.length).toBeGreaterThan(20);
      // hourly candles: at most 15 a trading day (09:00 to the 23:00 close), 6 trading days in a week and today
      expect(candles.length).toBeLessThanOrEqual(7 * 15);
      const hours = candles.map((c) => new Date((c.time + 3.5 * 3600) * 1000).getUTCHours());
      // (the 23:00 candle holds the closing price of the day's last 15 minutes)
      expect(hours.filter((h) => h < 9)).toEqual([]);
      candles.forEach((c, i) => {
        const before = candles[i - 1]?.close;
        expect(
          [c.open, c.high, c.low, c.close].every((v) => v === before),
          `candle ${i} is flat at the close before it`,
        ).toBe(false);
      });
    } finally {
      await sandbox.close();
    }
  });
});
