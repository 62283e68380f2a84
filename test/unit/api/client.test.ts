import { beforeEach, describe, expect, it } from 'vitest';
import { PriceClient } from '../../../src/api/client';
import { PriceBoardError } from '../../../src/shared/errors';
import { fetchSymbols } from '../../../src/api/symbols';
import { pendingWork } from '../../helpers/pending-work';
import { pricesSkippingUnknown } from '../../../src/api/unknown-symbols';
import { useTestSandbox } from './sandbox-control';

const sb = useTestSandbox();
let n = 0;
/** A key of its own per test: separate rate-limit counters and request log entries. */
let key: string;

const quick = { retries: 2, baseMs: 10, maxMs: 50 };

function client(extra: Partial<ConstructorParameters<typeof PriceClient>[0]> = {}): PriceClient {
  return new PriceClient({ baseUrl: sb.url, apiKey: key, retry: quick, ...extra });
}

async function failure(work: Promise<unknown>): Promise<PriceBoardError> {
  try {
    await work;
  } catch (error) {
    if (error instanceof PriceBoardError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

beforeEach(() => {
  key = `pro-key:client${++n}`;
});

describe('PriceClient happy paths', () => {
  it('fetches validated quotes in the requested order', async () => {
    const data = await client().prices(['eur', 'usd', 'gold_18']);
    expect(data.quotes.map((q) => q.symbol)).toEqual(['eur', 'usd', 'gold_18']);
    expect(typeof data.at).toBe('string');
    expect(data.delay_seconds).toBe(0);
    expect(data.quotes[0]?.price).toMatch(/^\d+(\.\d+)?$/);
  });

  it('sends the key only as X-API-Key and joins symbols with plain commas', async () => {
    await client().prices(['usd', 'eur']);
    const [request] = await sb.requests('/v1/prices', key);
    expect(request?.url).toBe('/v1/prices?symbols=usd,eur');
    expect((await sb.stats()).keyInUrl).toBe(0);
  });

  it('tolerates a trailing slash on the base URL', async () => {
    const data = await client({ baseUrl: `${sb.url}/` }).prices(['usd']);
    expect(data.quotes).toHaveLength(1);
  });

  it('fetches history as the raw body', async () => {
    const body = (await client().history('usd', 7)) as { data: { points: unknown[] } };
    expect(body.data.points.length).toBeGreaterThan(0);
    expect((await sb.requests('/v1/history/usd', key))[0]?.url).toBe('/v1/history/usd?days=7');
  });

  it('lists the symbols (fetchSymbols, for the demo)', async () => {
    const list = await fetchSymbols({ baseUrl: sb.url, apiKey: key });
    expect(list.length).toBeGreaterThan(100);
    expect(list.find((s) => s.symbol === 'usd')).toMatchObject({ category: 'currency', unit: 'unit' });
  });
});

describe('PriceClient errors', () => {
  it('maps 401 to unauthorized without retrying, and keeps the key out of the message', async () => {
    const badKey = 'not-a-key-SECRET123';
    const error = await failure(client({ apiKey: badKey }).prices(['usd']));
    expect(error).toMatchObject({ code: 'unauthorized', status: 401, final: true });
    expect((await sb.requests('/v1/prices', badKey)).length).toBe(1);
    expect(`${error.message} ${error.messageFa} ${JSON.stringify(error.toDetail())}`).not.toContain(badKey);
  });

  it('maps 403 of a key restricted to another domain to forbidden, final', async () => {
    const error = await failure(client({ apiKey: 'restricted-key' }).prices(['usd']));
    expect(error).toMatchObject({ code: 'forbidden', status: 403, final: true });
    expect((await sb.requests('/v1/prices', 'restricted-key')).length).toBe(1);
  });

  it('maps a 403 plan limit on history and names the service code', async () => {
    const error = await failure(client({ apiKey: `demo-key:c${n}` }).history('usd', 30));
    expect(error).toMatchObject({ code: 'forbidden', status: 403, data: { serviceCode: 'plan_limit' } });
  });

  it('carries Retry-After seconds on 429 and does not retry it', async () => {
    await sb.faults([{ path: '/v1/prices', kind: 'rate_limit', retryAfter: 7 }]);
    const error = await failure(client().prices(['usd']));
    expect(error).toMatchObject({ code: 'rate_limited', status: 429, retryAfterMs: 7_000 });
    expect((await sb.requests('/v1/prices', key)).length).toBe(1);
  });

  it('carries Retry-After as an HTTP date on 429', async () => {
    const at = new Date(Date.now() + 60_000).toUTCString();
    await sb.faults([{ path: '/v1/prices', kind: 'rate_limit', retryAfter: at }]);
    const error = await failure(client().prices(['usd']));
    expect(error.code).toBe('rate_limited');
    expect(error.retryAfterMs).toBeGreaterThan(55_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it('retries 5xx and succeeds', async () => {
    await sb.faults([{ path: '/v1/prices', kind: 'status', status: 503, count: 2 }]);
    const data = await client().prices(['usd']);
    expect(data.quotes).toHaveLength(1);
    const statuses = (await sb.requests('/v1/prices', key)).map((r) => r.status);
    expect(statuses).toEqual([503, 503, 200]);
  });

  it('gives up on 5xx after the retries, as server', async () => {
    await sb.faults([{ path: '/v1/prices', kind: 'status', status: 500 }]);
    const error = await failure(client().prices(['usd']));
    expect(error).toMatchObject({ code: 'server', status: 500, final: false });
    expect((await sb.requests('/v1/prices', key)).length).toBe(3);
  });

  it('maps a 404 on an unknown path to not_found', async () => {
    const error = await failure(client({ baseUrl: `${sb.url}/nothing-here` }).history('usd', 7));
    expect(error.code).toBe('not_found');
    expect((await failure(fetchSymbols({ baseUrl: `${sb.url}/nothing-here`, apiKey: key }))).code).toBe('not_found');
  });

  it('times out a slow answer with a short timeout', async () => {
    await sb.faults([{ path: '/v1/prices', kind: 'slow', delayMs: 2_000 }]);
    const error = await failure(client({ timeoutMs: 150 }).prices(['usd']));
    expect(error).toMatchObject({ code: 'timeout' });
  });

  it('times out a hanging answer', async () => {
    await sb.faults([{ path: '/v1/prices', kind: 'hang' }]);
    const error = await failure(client({ timeoutMs: 150 }).prices(['usd']));
    expect(error.code).toBe('timeout');
    expect((await sb.requests('/v1/prices', key)).length).toBe(1);
  });

  it('maps a network failure (nothing listening), after retries', async () => {
    const error = await failure(new PriceClient({ baseUrl: 'http://127.0.0.1:9', retry: quick }).prices(['usd']));
    expect(error.code).toBe('network');
  });

  it('rejects a truncated body as bad_response', async () => {
    await sb.faults([{ path: '/v1/prices', kind: 'malformed' }]);
    expect((await failure(client().prices(['usd']))).code).toBe('bad_response');
  });

  it('rejects valid JSON with a malformed quote as bad_response', async () => {
    const body = JSON.stringify({
      data: { at: '2026-01-01T00:00:00Z', delay_seconds: 0, quotes: [{ symbol: 'usd', price: 12 }] },
    });
    await sb.faults([{ path: '/v1/prices', kind: 'malformed', body }]);
    expect((await failure(client().prices(['usd']))).code).toBe('bad_response');
  });

  it('reads a {"error","message"} body and a non-JSON error body by status', async () => {
    await sb.faults([
      { path: '/v1/prices', kind: 'status', status: 400, body: '{"error":"bad_request","message":"no"}', count: 1 },
    ]);
    expect(await failure(client().prices(['usd']))).toMatchObject({
      code: 'bad_request',
      data: { serviceCode: 'bad_request' },
    });
    await sb.faults([{ path: '/v1/prices', kind: 'status', status: 502, body: '<html>bad gateway</html>' }]);
    expect(await failure(client({ retry: { ...quick, retries: 0 } }).prices(['usd']))).toMatchObject({
      code: 'server',
      status: 502,
    });
  });
});

describe('unknown symbols', () => {
  it('maps 404 unknown_symbol with the listed ids', async () => {
    const error = await failure(client().prices(['usd', 'zzz']));
    expect(error).toMatchObject({ code: 'unknown_symbol', status: 404, data: { symbols: ['zzz'] } });
  });

  it('drops the unknown ids and asks once more', async () => {
    const outcome = await pricesSkippingUnknown(client(), ['usd', 'zzz', 'eur']);
    expect(outcome.unknown).toEqual(['zzz']);
    expect(outcome.missing).toEqual(['zzz']);
    expect(outcome.data?.quotes.map((q) => q.symbol)).toEqual(['usd', 'eur']);
    expect((await sb.requests('/v1/prices', key)).map((r) => r.url)).toEqual([
      '/v1/prices?symbols=usd,zzz,eur',
      '/v1/prices?symbols=usd,eur',
    ]);
  });

  it('reports symbols the answer left out as missing', async () => {
    await sb.faults([{ path: '/v1/prices', kind: 'omit_symbol', symbol: 'eur' }]);
    const outcome = await pricesSkippingUnknown(client(), ['usd', 'eur']);
    expect(outcome).toMatchObject({ unknown: [], missing: ['eur'] });
  });
});

describe('in-flight sharing and cancelling', () => {
  it('shares identical requests in flight', async () => {
    const c = client();
    const [a, b] = await Promise.all([c.prices(['usd', 'eur']), c.prices(['usd', 'eur'])]);
    expect(a).toBe(b);
    expect((await sb.requests('/v1/prices', key)).length).toBe(1);
  });

  it('does not share requests of different symbols', async () => {
    const c = client();
    await Promise.all([c.prices(['usd']), c.prices(['eur'])]);
    expect((await sb.requests('/v1/prices', key)).length).toBe(2);
  });

  it('one caller aborting does not abort the other', async () => {
    await sb.faults([{ path: '/v1/prices', kind: 'slow', delayMs: 150 }]);
    const c = client();
    const controller = new AbortController();
    const first = c.prices(['usd'], controller.signal);
    const second = c.prices(['usd']);
    controller.abort();
    await expect(first).rejects.toMatchObject({ name: 'AbortError' });
    expect((await second).quotes).toHaveLength(1);
    expect((await sb.requests('/v1/prices', key)).length).toBe(1);
  });

  it('a caller abort rejects with the AbortError and leaves nothing running', async () => {
    await sb.faults([{ path: '/v1/prices', kind: 'hang' }]);
    const c = client();
    const controller = new AbortController();
    const work = c.prices(['usd'], controller.signal);
    // Abort once the request has reached the service (and hangs there).
    await expect.poll(async () => (await sb.requests('/v1/prices', key)).length).toBe(1);
    controller.abort();
    const error = await work.catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(PriceBoardError);
    expect(error).toMatchObject({ name: 'AbortError' });
    await expect.poll(() => pendingWork()).toEqual({ timers: 0, requests: 0 });
    // The aborted request is not shared any more: the same one asked again goes out and answers.
    await sb.faults([]);
    const again = await c.prices(['usd']);
    expect(again.quotes.map((q) => q.symbol)).toEqual(['usd']);
    expect((await sb.requests('/v1/prices', key)).length).toBe(2);
  });
});
