// The relay speaks the service contract downstream (DESIGN.md §4), with caching headers, and an
// X-API-Key sent by a browser changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control, get, startPair, Stream, until, type Pair } from './helpers';

let pair: Pair;
beforeAll(async () => {
  pair = await startPair({ PLAN: 'basic', CLIENT_RPM: '100000' }, { heartbeatMs: 200 });
});
afterAll(() => pair.close());

describe('relay REST endpoints', () => {
  it('answers /v1/prices in the service envelope, in request order, with no key', async () => {
    const answer = await get(pair.relay.url, '/v1/prices?symbols=eur,usd');
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.body) as {
      data: { at: string; delay_seconds: number; quotes: { symbol: string; price: string }[] };
    };
    expect(body.data.quotes.map((q) => q.symbol)).toEqual(['eur', 'usd']);
    expect(body.data.delay_seconds).toBe(0);
    expect(typeof body.data.quotes[0]!.price).toBe('string');
    expect(answer.headers['cache-control']).toMatch(/public, max-age=\d+, stale-while-revalidate=\d+/);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await get(pair.relay.url, '/v1/symbols');
    expect(first.status).toBe(200);
    expect(first.headers.etag).toBeTruthy();
    const second = await get(pair.relay.url, '/v1/symbols', { headers: { 'If-None-Match': first.headers.etag! } });
    expect(second.status).toBe(304);
    expect(second.body).toBe('');
  });

  it('ignores a key sent by a browser, good or bad', async () => {
    const answer = await get(pair.relay.url, '/v1/prices?symbols=usd', { headers: { 'X-API-Key': 'not-a-key' } });
    expect(answer.status).toBe(200);
  });

  it('answers history once from upstream for many askers, cached with an ETag', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => get(pair.relay.url, '/v1/history/gold_18?days=7')),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const body = JSON.parse(answers[0]!.body) as { data: { points: unknown[] } };
    expect(body.data.points.length).toBeGreaterThan(100);
    const stats = (await control<{ requests: { path: string }[] }>(pair.sandbox.url, 'stats', undefined, 'GET'))
      .requests;
    expect(stats.filter((r) => r.path === '/v1/history/gold_18')).toHaveLength(1);
    expect(answers[0]!.headers['cache-control']).toMatch(/max-age=300/);
  });

  it('keeps the service error shapes', async () => {
    const bad = await get(pair.relay.url, '/v1/prices?symbols=USD');
    expect([bad.status, JSON.parse(bad.body).error.code]).toEqual([400, 'bad_request']);
    const unknown = await get(pair.relay.url, '/v1/prices?symbols=usd,nope');
    expect(JSON.parse(unknown.body)).toMatchObject({ error: { code: 'unknown_symbol', symbols: ['nope'] } });
    expect(unknown.status).toBe(404);
    // basic gives 30 days of history: answered by the relay, not spent upstream.
    const span = await get(pair.relay.url, '/v1/history/usd?days=365');
    expect([span.status, JSON.parse(span.body).error]).toEqual([
      403,
      expect.objectContaining({ code: 'plan_limit', max_days: 30 }),
    ]);
    const post = await get(pair.relay.url, '/v1/prices?symbols=usd', { method: 'POST' });
    expect(post.status).toBe(405);
    const missing = await get(pair.relay.url, '/v1/nothing');
    expect([missing.status, JSON.parse(missing.body).error.code]).toEqual([404, 'not_found']);
  });

  it('answers a history symbol outside [a-z0-9_] as the service does: 404 unknown_symbol', async () => {
    // Its own visitor address: the requests above used most of the default one's burst.
    const from = '127.0.9.1';
    for (const path of [
      '/v1/history/US$D?days=7',
      '/v1/history/%F0%9F%92%B0?days=7',
      '/v1/history/USD?days=7',
      '/v1/history/a%2Fb?days=7',
    ]) {
      const relayed = await get(pair.relay.url, path, { from });
      const direct = await get(pair.sandbox.url, path, { headers: { 'X-API-Key': 'enterprise-key' } });
      const answer = (a: typeof relayed) => [a.status, JSON.parse(a.body).error.code, JSON.parse(a.body).error.symbols];
      expect(answer(relayed), path).toEqual(answer(direct));
      expect(answer(relayed), path).toEqual([
        404,
        'unknown_symbol',
        [decodeURIComponent(path.slice('/v1/history/'.length, path.indexOf('?')))],
      ]);
    }
    // Not decodable, or not one segment: no such endpoint, as upstream.
    for (const path of ['/v1/history/%ZZ', '/v1/history/usd/x']) {
      const relayed = await get(pair.relay.url, path, { from });
      expect([relayed.status, JSON.parse(relayed.body).error.code], path).toEqual([404, 'not_found']);
    }
  });
});

describe('relay stream', () => {
  it('sends retry, a snapshot with an id, heartbeats, then each upstream change', async () => {
    const stream = new Stream(pair.relay.url, 'usd,eur');
    const snapshot = await stream.event((e) => e.event === 'quotes');
    expect(stream.retry).toBe(3000);
    expect(snapshot.id).toMatch(/^\d+$/);
    expect((JSON.parse(snapshot.data) as { quotes: unknown[] }).quotes).toHaveLength(2);
    await control(pair.sandbox.url, 'market', { set: [{ symbol: 'usd', price: '1234560' }] });
    const change = await stream.event((e) => e.event === 'quote');
    expect(JSON.parse(change.data)).toMatchObject({ symbol: 'usd', price: '1234560' });
    expect(Number(change.id)).toBeGreaterThan(Number(snapshot.id));
    await until(() => stream.comments.length > 0, 5_000);
    stream.close();
  });

  it('resumes after Last-Event-ID with the missed changes instead of a snapshot', async () => {
    const first = new Stream(pair.relay.url, 'eur');
    const snapshot = await first.event((e) => e.event === 'quotes');
    first.close();
    await control(pair.sandbox.url, 'market', {
      set: [
        { symbol: 'eur', price: '1300000' },
        { symbol: 'usd', price: '1100000' },
      ],
    });
    await control(pair.sandbox.url, 'market', { set: [{ symbol: 'eur', price: '1300100' }] });
    const resumed = new Stream(pair.relay.url, 'eur', { lastEventId: snapshot.id! });
    await resumed.event((e) => JSON.parse(e.data).price === '1300100');
    expect(resumed.events.map((e) => [e.event, JSON.parse(e.data).price])).toEqual([
      ['quote', '1300000'],
      ['quote', '1300100'],
    ]);
    resumed.close();
  });

  it('sends a snapshot for an unknown Last-Event-ID', async () => {
    const stream = new Stream(pair.relay.url, 'usd', { lastEventId: '99999999' });
    expect((await stream.event()).event).toBe('quotes');
    stream.close();
  });
});
