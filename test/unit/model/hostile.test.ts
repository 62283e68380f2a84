// Issue 16, items 2 and 3 and two decided cases: hostile history and quote times from a real
// sandbox, read by the real client, through model/.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PriceClient } from '../../../src/api/client';
import { MAX_HISTORY_POINTS, intervalFor, normalizeHistory, toCandles } from '../../../src/model/history';
import { FUTURE_SKEW_MS, QuoteStore } from '../../../src/model/quote-store';
import { startTestSandbox, type TestSandbox } from '../api/sandbox-control';

let sb: TestSandbox;
let n = 0;
const client = () => new PriceClient({ baseUrl: sb.url, apiKey: `pro-key:model${++n}` });

beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.close();
});
afterEach(async () => {
  await sb.reset();
});

describe('a huge history', () => {
  it('is capped in points and clipped to the asked span before any per-point work', async () => {
    await sb.faults([{ kind: 'huge_history', path: '/v1/history', points: 300_000, spanDays: 347 }]);
    const body = await client().history('usd', 7);
    const started = performance.now();
    const points = normalizeHistory(body, { days: 7 });
    const candles = toCandles(points, intervalFor(7));
    // Generous: a million took 9.6 s in a browser before; 40,000 points take ~0.1 s.
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(points.length).toBeGreaterThan(0);
    expect(points.length).toBeLessThanOrEqual(MAX_HISTORY_POINTS);
    const now = Date.now() / 1000;
    expect(now - points[0]!.time).toBeLessThanOrEqual(8 * 86_400);
    expect(candles.length).toBeLessThanOrEqual(9 * 24);
  });

  it('over 8 MB (1,000,000 points) is bad_response, its reading cut off at the cap', async () => {
    await sb.faults([{ kind: 'huge_history', path: '/v1/history', points: 1_000_000, spanDays: 347 }]);
    await expect(client().history('usd', 7)).rejects.toMatchObject({
      code: 'bad_response',
      message: expect.stringMatching(/larger than/),
    });
  });

  it('drops a point dated 1e20 (or in the future) instead of failing the chart', async () => {
    const now = Math.floor(Date.now() / 1000);
    const body = `{"data":{"points":[[${now - 3600},100],[1e20,100],[${now + 86_400},100],[${now},110]]}}`;
    await sb.faults([{ kind: 'status', path: '/v1/history', status: 200, body }]);
    const points = normalizeHistory(await client().history('usd', 7), { days: 7 });
    expect(points.map((p) => p.time)).toEqual([now - 3600, now]);
  });
});

describe('a quote from the future', () => {
  it('does not freeze its row: a later quote still wins, and the far-future one counts as received now', async () => {
    const store = new QuoteStore();
    const c = client();
    await sb.market({ set: [{ symbol: 'usd', price: '1000000', updated_at: '2999-01-01T00:00:00Z' }] });
    const [future] = store.apply((await c.prices(['usd'])).quotes);
    expect(future!.price).toBe('1000000');
    expect(Date.parse(future!.updated_at)).toBeLessThanOrEqual(Date.now());
    const later = new Date(Date.now() + 1000).toISOString();
    await sb.market({ set: [{ symbol: 'usd', price: '1000010', updated_at: later }] });
    expect(store.apply((await c.prices(['usd'])).quotes).map((q) => q.price)).toEqual(['1000010']);
  });

  it('keeps a quote within the clock skew as sent, ordered by its own time', async () => {
    const store = new QuoteStore();
    const soon = new Date(Date.now() + FUTURE_SKEW_MS / 2).toISOString();
    await sb.market({ set: [{ symbol: 'eur', price: '1200000', updated_at: soon }] });
    const [quote] = store.apply((await client().prices(['eur'])).quotes);
    expect(Date.parse(quote!.updated_at)).toBe(Date.parse(soon));
  });
});

describe('a price beyond 2^53 sent as a JSON number', () => {
  it('is refused as bad_response rather than shown rounded', async () => {
    const at = new Date().toISOString();
    const quote = `{"symbol":"usd","title":"دلار","category":"currency","unit":"rial","price":12345678901234567890,"price_toman":"1","change_pct":"0","high":"1","low":"1","updated_at":"${at}"}`;
    await sb.faults([
      {
        kind: 'status',
        path: '/v1/prices',
        status: 200,
        body: `{"data":{"at":"${at}","delay_seconds":0,"quotes":[${quote}]}}`,
      },
    ]);
    await expect(client().prices(['usd'])).rejects.toMatchObject({ code: 'bad_response' });
  });
});
