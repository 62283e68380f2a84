import { afterEach, describe, expect, it } from 'vitest';
import type { FaultRule } from '../../sandbox/server';
import {
  call,
  control,
  SseClient,
  until,
  type ErrorBody,
  type PricesBody,
  type SandboxStats,
  useSandbox,
} from './helpers';

const s = useSandbox();
afterEach(() => control(s.url, 'reset'));

const faults = (...rules: FaultRule[]) => control(s.url, 'faults', { rules });
const prices = (key = 'pro-key', symbols = 'usd,eur') => call(s.url, `/v1/prices?symbols=${symbols}`, { key });
const stats = () => control<SandboxStats>(s.url, 'stats', undefined, 'GET');

describe('fault injection', () => {
  it('answers an injected status on the matching path only', async () => {
    await faults({ kind: 'status', status: 503, path: '/v1/prices' });
    const res = await prices();
    expect(res.status).toBe(503);
    expect(((await res.json()) as ErrorBody).error.code).toBe('unavailable');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect((await call(s.url, '/v1/symbols', { key: 'pro-key' })).status).toBe(200);
  });

  it('applies to every /v1 path by default, even before the key is checked', async () => {
    await faults({ kind: 'status', status: 500 });
    expect((await call(s.url, '/v1/symbols')).status).toBe(500);
    expect((await call(s.url, '/v1/history/usd?days=7', { key: 'pro-key' })).status).toBe(500);
    expect((await fetch(`${s.url}/__sandbox/stats`)).status).toBe(200);
  });

  it('can send a raw body with the status', async () => {
    await faults({ kind: 'status', status: 502, body: '<html>Bad gateway</html>' });
    const res = await prices();
    expect(res.status).toBe(502);
    expect(await res.text()).toBe('<html>Bad gateway</html>');
  });

  it('answers 429 with Retry-After in seconds or as an HTTP date', async () => {
    const date = 'Wed, 21 Oct 2026 07:28:00 GMT';
    await faults({ kind: 'rate_limit', retryAfter: date, count: 1 }, { kind: 'rate_limit', retryAfter: 7, count: 1 });
    const first = await prices();
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe(date);
    expect(((await first.json()) as ErrorBody).error.code).toBe('rate_limited');
    expect((await prices()).headers.get('retry-after')).toBe('7');
    expect((await prices()).status).toBe(200);
  });

  it('delays the answer', async () => {
    await faults({ kind: 'slow', delayMs: 300 });
    const t0 = Date.now();
    const res = await prices();
    expect(res.status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(280);
  });

  it('can delay and then fail', async () => {
    await faults({ kind: 'slow', delayMs: 150 }, { kind: 'status', status: 504 });
    const t0 = Date.now();
    expect((await prices()).status).toBe(504);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(130);
  });

  it('opens no stream for a client that left during the delay', async () => {
    await faults({ kind: 'slow', delayMs: 200, path: '/v1/stream' });
    const request = call(s.url, '/v1/stream?symbols=usd', { key: 'pro-key', signal: AbortSignal.timeout(50) });
    await expect(request).rejects.toThrow();
    // A second request, delayed the same way, is served after the first one's delay has run out.
    const controller = new AbortController();
    const second = await call(s.url, '/v1/stream?symbols=usd', { key: 'pro-key', signal: controller.signal });
    expect(second.status).toBe(200);
    expect(await stats()).toMatchObject({ openStreams: 1, streamsOpened: 1 });
    controller.abort();
    await until(async () => (await stats()).openStreams === 0);
  });

  it('hangs until the client gives up', async () => {
    await faults({ kind: 'hang', count: 1 });
    await expect(
      call(s.url, '/v1/prices?symbols=usd', { key: 'pro-key', signal: AbortSignal.timeout(200) }),
    ).rejects.toThrow();
    const log = (await stats()).requests;
    expect(log.at(-1)).toMatchObject({ path: '/v1/prices', status: null });
    expect((await prices()).status).toBe(200);
  });

  it('answers a malformed body with status 200', async () => {
    await faults({ kind: 'malformed', count: 1 }, { kind: 'malformed', body: 'not json at all' });
    const truncated = await prices();
    expect(truncated.status).toBe(200);
    await expect(truncated.json()).rejects.toThrow();
    expect(await (await prices()).text()).toBe('not json at all');
  });

  it('drops a stream after N events without ending it', async () => {
    await faults({ kind: 'drop_stream', afterEvents: 2, count: 1 });
    expect((await prices()).status).toBe(200);
    const c = await SseClient.open(s.url, 'usd');
    await c.event();
    await control(s.url, 'market', { set: [{ symbol: 'usd', price: '1066000' }] });
    await until(() => c.ended);
    expect(c.events.map((e) => e.event)).toEqual(['quotes', 'quote']);
    expect(c.error).toBeDefined();
    await until(async () => (await stats()).openStreams === 0);
    const next = await SseClient.open(s.url, 'usd');
    await control(s.url, 'market', { set: [{ symbol: 'usd', price: '1067000' }] });
    await next.event((e) => e.event === 'quote');
    expect(next.ended).toBe(false);
    next.close();
  });

  it('drops a stream right after the snapshot by default', async () => {
    await faults({ kind: 'drop_stream' });
    const c = await SseClient.open(s.url, 'usd');
    await until(() => c.ended);
    expect(c.events.map((e) => e.event)).toEqual(['quotes']);
  });

  it('leaves a symbol out of prices and of the stream', async () => {
    await faults({ kind: 'omit_symbol', symbol: 'eur' });
    const body = (await (await prices('pro-key', 'usd,eur,gbp')).json()) as PricesBody;
    expect(body.data.quotes.map((q) => q.symbol)).toEqual(['usd', 'gbp']);
    const c = await SseClient.open(s.url, 'usd,eur');
    const snapshot = JSON.parse((await c.event()).data) as PricesBody['data'];
    expect(snapshot.quotes.map((q) => q.symbol)).toEqual(['usd']);
    await control(s.url, 'market', {
      set: [
        { symbol: 'eur', price: '1240000' },
        { symbol: 'usd', price: '1068000' },
      ],
    });
    // Events on a stream arrive in order: once a marker pushed after the change is in, so is any eur quote.
    await control(s.url, 'push', { event: 'marker', data: 'm' });
    await c.event((e) => e.event === 'marker');
    expect(c.events.filter((e) => e.event === 'quote').map((e) => JSON.parse(e.data).symbol)).toEqual(['usd']);
    c.close();
  });

  it('expires a rule after count requests', async () => {
    await faults({ kind: 'status', status: 500, count: 2 });
    expect((await prices()).status).toBe(500);
    expect((await prices()).status).toBe(500);
    expect((await prices()).status).toBe(200);
    expect(await control(s.url, 'faults', undefined, 'GET')).toEqual({ rules: [] });
  });

  it('applies a keyed rule to that key only', async () => {
    await faults({ kind: 'status', status: 401, key: 'pro-key:a' });
    expect((await prices('pro-key:a')).status).toBe(401);
    expect((await prices('pro-key:b')).status).toBe(200);
    expect((await prices('pro-key')).status).toBe(200);
  });

  it('clears the rules on DELETE and leaves the normal path as it was', async () => {
    const quotes = async () => ((await (await prices()).json()) as PricesBody).data.quotes;
    const clean = await quotes();
    await faults({ kind: 'status', status: 500 });
    expect(await control(s.url, 'faults', undefined, 'DELETE')).toEqual({ rules: [] });
    expect(await quotes()).toEqual(clean);
  });

  it('rejects invalid rules with 400', async () => {
    for (const body of [
      {},
      { rules: [{ kind: 'explode' }] },
      { rules: [{ kind: 'status', status: '500' }] },
      { rules: [{ kind: 'omit_symbol' }] },
    ]) {
      const res = await fetch(`${s.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(body) });
      expect(res.status).toBe(400);
      expect(((await res.json()) as ErrorBody).error.code).toBe('bad_request');
    }
    const res = await fetch(`${s.url}/__sandbox/faults`, { method: 'POST', body: '{oops' });
    expect(res.status).toBe(400);
  });
});

describe('market control', () => {
  it('validates its body and reports the state', async () => {
    expect(await control(s.url, 'market', { open: false })).toMatchObject({ open: false, mode: 'closed', changed: [] });
    expect(await control(s.url, 'market', { mode: 'open' })).toMatchObject({ open: true, mode: 'open' });
    for (const body of [
      { open: 'yes' },
      { set: [{ symbol: 'zzz', price: '1' }] },
      { set: [{ symbol: 'usd', price: '-1' }] },
      { set: [{ symbol: 'usd', price: '1e9' }] },
    ]) {
      const res = await fetch(`${s.url}/__sandbox/market`, { method: 'POST', body: JSON.stringify(body) });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('sets a price with a given updated_at', async () => {
    await control(s.url, 'market', { set: [{ symbol: 'usd', price: '1000000', updated_at: '2026-11-19T10:00:00Z' }] });
    const quote = ((await (await prices('pro-key', 'usd')).json()) as PricesBody).data.quotes[0]!;
    expect(quote).toMatchObject({ price: '1000000', updated_at: '2026-11-19T13:30:00.000+03:30' });
  });
});
