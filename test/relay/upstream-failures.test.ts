// The relay against an upstream that fails (DESIGN.md §7.1): a controlled node:http server in
// front of the sandbox answers 401/403/404/429/5xx/HTML/huge bodies per path and counts what the
// relay asked. Each case is what an attacker or a failing service did to the relay before.
import { describe, expect, it } from 'vitest';
import { Budget, POLL_DAY_SHARE } from '../../relay/budget';
import { PLAN_BUDGETS } from '../../relay/config';
import { MemoryBudget } from '../../relay/engine/memory-budget';
import { control, get, Stream, until } from './helpers';
import { health as healthOf, relaysBehind, streamRequests as streamRequestsOf, type Setup } from './upstream-helpers';

const behind = relaysBehind();
let setup: Setup | undefined;

const json = (body: string): Record<string, unknown> => JSON.parse(body) as Record<string, unknown>;
const priceOf = (e: { data: string }): string => (JSON.parse(e.data) as { price: string }).price;

const health = (): Promise<{ status: number; upstream: string }> => healthOf(setup!.relay.url);

const open = (symbols: string): Stream => behind.open(setup!.relay.url, symbols);

/** Catalog ids the relay does not stream from the start (its defaults: usd, eur, gold_18, coin_emami, ons). */
async function otherSymbols(): Promise<string[]> {
  const body = json((await get(setup!.relay.url, '/v1/symbols')).body) as { data: { symbols: { symbol: string }[] } };
  const defaults = ['usd', 'eur', 'gold_18', 'coin_emami', 'ons'];
  return body.data.symbols.map((s) => s.symbol).filter((s) => !defaults.includes(s));
}

const streamRequests = (): string[][] => streamRequestsOf(setup!.upstream);

describe('a failure stays where it happened', () => {
  it.each([
    [403, 'plan_limit'],
    [403, 'forbidden'],
    [404, 'not_found'],
  ])(
    'an upstream %i (%s) on one symbol history is remembered for it only: health, prices and other history stay',
    async (status, code) => {
      setup = await behind.start({}, {}, (up) => up.fail(/^\/v1\/history\/eur/, status, code));
      await until(async () => (await health()).status === 200);

      const refused = await get(setup.relay.url, '/v1/history/eur?days=7');
      expect(refused.status).not.toBe(200);
      expect(await health()).toEqual({ status: 200, upstream: 'stream' });
      expect((await get(setup.relay.url, '/v1/history/usd?days=7')).status).toBe(200);
      const [other] = await otherSymbols();
      expect((await get(setup.relay.url, `/v1/prices?symbols=${other}`)).status).toBe(200);
      // Asked again: answered alike, without another upstream request for it.
      expect((await get(setup.relay.url, '/v1/history/eur?days=7')).status).toBe(refused.status);
      expect(setup.upstream.count(/^\/v1\/history\/eur/)).toBe(1);
    },
  );

  it('a refused key (401 anywhere) stops upstream requests but a rare probe, and the relay recovers by itself', async () => {
    let refuse = false;
    setup = await behind.start({}, { upstream: { probeMs: 300 } }, (up) =>
      up.rule((_req, res) => {
        if (!refuse) return false;
        res.writeHead(401, { 'Content-Type': 'application/json' });
        res.end('{"error":{"code":"unauthorized","message":"bad key"}}');
        return true;
      }),
    );
    await until(async () => (await health()).status === 200);
    expect((await get(setup.relay.url, '/v1/symbols')).status).toBe(200);
    refuse = true;
    const seenBefore = setup.upstream.seen.length;
    expect((await get(setup.relay.url, '/v1/history/usd?days=30')).status).not.toBe(200);
    expect(await health()).toEqual({ status: 503, upstream: 'key_refused' });
    // Visitors asking meanwhile cost nothing upstream: only the probes go (every 300 ms here).
    for (let i = 0; i < 5; i++) await get(setup.relay.url, `/v1/history/usd?days=${7 + i}`);
    await until(() => setup!.upstream.count(/^\/v1\/symbols/) >= 2, 10_000);
    const sent = setup.upstream.seen.slice(seenBefore);
    expect(sent.filter((s) => s.path !== '/v1/symbols').map((s) => s.path)).toEqual(['/v1/history/usd']);

    refuse = false;
    await until(async () => (await health()).status === 200, 10_000);
    expect(setup.logs.some((l) => l.includes('upstream_key_accepted'))).toBe(true);
    // And prices flow again: a change reaches a visitor's stream.
    const stream = open('usd');
    await stream.event((e) => e.event === 'quotes');
    await control(setup.sandbox.url, 'market', { set: [{ symbol: 'usd', price: '1234567' }] });
    expect(priceOf(await stream.event((e) => e.event === 'quote'))).toBe('1234567');
  });
});

describe('a pause never tears down what works', () => {
  it.each([
    ['a 429 (Retry-After: 300) on history', {}, true],
    ['the budget spent (3 requests a minute: the stream, the catalog, one more symbol)', { UPSTREAM_RPM: '4' }, false],
  ])(
    'during %s the open upstream stream stays open and changes keep reaching visitors',
    async (_name, env, historyFails) => {
      setup = await behind.start(env);
      const stream = open('usd');
      await stream.event((e) => e.event === 'quotes');
      const others = await otherSymbols();
      if (historyFails) {
        setup.upstream.fail(/^\/v1\/history/, 429, 'rate_limited', { 'Retry-After': '300' });
        expect((await get(setup.relay.url, `/v1/history/${others[0]}?days=7`)).status).toBe(429);
      } else {
        expect((await get(setup.relay.url, `/v1/prices?symbols=${others[0]}`)).status).toBe(200);
      }
      // A visitor asks for a symbol not streamed yet: whatever the relay does for it, it is done
      // when the answer comes (a new stream beside the old, or a poll, or nothing it may spend).
      await get(setup.relay.url, `/v1/prices?symbols=${others[1]}`);
      await control(setup.sandbox.url, 'market', { set: [{ symbol: 'usd', price: '7654321' }] });
      expect(priceOf(await stream.event((e) => e.event === 'quote', 0, 10_000))).toBe('7654321');
      expect(streamRequests().length).toBeLessThanOrEqual(2);
    },
  );

  it('tells the first visitor of a pause the wait the relay keeps: an upstream Retry-After past 5 minutes is 300 s, as for the next', async () => {
    setup = await behind.start();
    const [first, second] = await otherSymbols();
    setup.upstream.fail(/^\/v1\/history/, 429, 'rate_limited', { 'Retry-After': '99999999999999999999' });
    const answers = [
      await get(setup.relay.url, `/v1/history/${first}?days=7`),
      await get(setup.relay.url, `/v1/history/${second}?days=7`),
    ];
    expect(answers.map((a) => a.status)).toEqual([429, 429]);
    for (const a of answers) expect(Number(a.headers['retry-after'])).toBeLessThanOrEqual(300);
    expect(Number(answers[0]!.headers['retry-after'])).toBeGreaterThan(290);
  });

  it('a symbol asked for during a pause of the quotes is served by a poll once the pause ends', async () => {
    setup = await behind.start();
    const stream = open('usd');
    await stream.event((e) => e.event === 'quotes');
    const [first, other] = await otherSymbols();
    // The first symbol asked for opens a stream beside the working one; the next, within the
    // resubscribe window, is polled.
    expect((await get(setup.relay.url, `/v1/prices?symbols=${first}`)).status).toBe(200);
    const remove = setup.upstream.fail(/^\/v1\/prices/, 429, 'rate_limited', { 'Retry-After': '1' });
    const answer = get(setup.relay.url, `/v1/prices?symbols=${other}`);
    await until(() => setup!.upstream.count(/^\/v1\/prices/) >= 1);
    remove();
    const got = await answer;
    expect(got.status).toBe(200);
    expect(json(got.body)).toMatchObject({ data: { quotes: [{ symbol: other }] } });
  });
});

describe('adding symbols to the upstream stream', () => {
  it('is debounced and bounded: a visitor asking for each symbol in turn causes one reconnect, and an unknown id none', async () => {
    setup = await behind.start();
    await until(() => streamRequests().length === 1);
    const others = (await otherSymbols()).slice(0, 10);
    for (const s of others) {
      const answer = await get(setup.relay.url, `/v1/prices?symbols=${s}`);
      expect(answer.status).toBe(200);
    }
    for (const id of ['nope', 'usd_x', 'zzz'])
      expect((await get(setup.relay.url, `/v1/prices?symbols=${id}`)).status).toBe(404);
    // Ten symbols in turn: the first starts the debounce, the rest wait for the next window (30 s).
    expect(streamRequests().length).toBeLessThanOrEqual(2);
    expect(streamRequests().flat()).not.toContain('nope');
  });

  it('brings every symbol asked for into the one stream, without closing the working one before the new one delivers', async () => {
    setup = await behind.start({}, { upstream: { resubscribeMs: 500 } });
    const stream = open('usd');
    await stream.event((e) => e.event === 'quotes');
    const others = (await otherSymbols()).slice(0, 6);
    const began = Date.now();
    for (const s of others) expect((await get(setup.relay.url, `/v1/prices?symbols=${s}`)).status).toBe(200);
    await until(() => others.every((s) => streamRequests().at(-1)!.includes(s)), 10_000);
    // At most one reconnect per 500 ms window (the first stream, and one more at the end).
    expect(streamRequests().length).toBeLessThanOrEqual(2 + Math.floor((Date.now() - began) / 500));
    // The visitor's stream never noticed.
    await control(setup.sandbox.url, 'market', { set: [{ symbol: others[5]!, price: '424242' }] });
    const visitor = open(others[5]!);
    await visitor.event((e) => e.event === 'quote' || (e.event === 'quotes' && e.data.includes('424242')));
  });
});

describe('a service that allows one stream per key', () => {
  it('gets the symbols asked for by reconnecting its one stream in place, without pausing the quotes', async () => {
    setup = await behind.start({}, { upstream: { resubscribeMs: 300 } }, undefined, { maxStreamsPerKey: 1 });
    const visitor = open('usd');
    await visitor.event((e) => e.event === 'quotes');
    const others = (await otherSymbols()).slice(0, 3);
    for (const s of others) expect((await get(setup.relay.url, `/v1/prices?symbols=${s}`)).status).toBe(200);
    await until(
      () =>
        others.every((s) => streamRequests().at(-1)!.includes(s)) &&
        setup!.logs.some((l) => l.includes('upstream_one_stream_only')),
      10_000,
    );
    expect(setup.logs.filter((l) => l.includes('upstream_backoff'))).toEqual([]);
    await control(setup.sandbox.url, 'market', { set: [{ symbol: 'usd', price: '8080808' }] });
    expect(priceOf(await visitor.event((e) => e.event === 'quote' && priceOf(e) === '8080808', 0, 10_000))).toBe(
      '8080808',
    );
  });
});

describe('polling is a fallback, not a state', () => {
  it('after the stream fails the relay polls, keeps trying the stream with backoff, and returns to it', async () => {
    let down = true;
    setup = await behind.start({}, { upstream: { streamRetryMs: 200, streamRetryMaxMs: 400 } }, (up) =>
      up.rule((_req, res, url) => {
        if (!down || url.pathname !== '/v1/stream') return false;
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<html>maintenance</html>');
        return true;
      }),
    );
    await until(async () => (await health()).upstream === 'poll', 15_000);
    expect((await get(setup.relay.url, '/v1/prices?symbols=usd')).status).toBe(200);
    const tries = streamRequests().length;
    await until(() => streamRequests().length > tries, 10_000);
    down = false;
    await until(async () => (await health()).upstream === 'stream', 15_000);
    const stream = open('usd');
    await stream.event((e) => e.event === 'quotes');
    await control(setup.sandbox.url, 'market', { set: [{ symbol: 'usd', price: '5550555' }] });
    expect(priceOf(await stream.event((e) => e.event === 'quote'))).toBe('5550555');
  });

  it('while a stream that was open cannot reconnect, polls carry the changes; then the stream is back', async () => {
    setup = await behind.start();
    const visitor = open('usd');
    await visitor.event((e) => e.event === 'quotes');
    const remove = setup.upstream.fail(/^\/v1\/stream/, 503, 'unavailable');
    setup.upstream.dropStreams();
    await until(() => setup!.upstream.count(/^\/v1\/stream/) >= 2, 10_000);
    const polls = setup.upstream.count(/^\/v1\/prices/);
    await control(setup.sandbox.url, 'market', { set: [{ symbol: 'usd', price: '3131313' }] });
    expect(priceOf(await visitor.event((e) => e.event === 'quote', 0, 15_000))).toBe('3131313');
    expect(setup.upstream.count(/^\/v1\/prices/)).toBeGreaterThan(polls);
    remove();
    await until(
      async () => (await health()).upstream === 'stream' && setup!.upstream.count(/^\/v1\/stream/) > 0,
      20_000,
    );
    const from = visitor.events.length;
    await until(async () => {
      // The stream is open again once a change arrives with no poll in between.
      const before = setup!.upstream.count(/^\/v1\/prices/);
      const price = String(4_000_000 + visitor.events.length);
      await control(setup!.sandbox.url, 'market', { set: [{ symbol: 'usd', price }] });
      await visitor.event((e) => e.event === 'quote' && priceOf(e) === price, from, 10_000);
      return setup!.upstream.count(/^\/v1\/prices/) === before;
    }, 25_000);
  }, 60_000);

  it.each(Object.entries(PLAN_BUDGETS))(
    'polls on the %s plan at an interval the minute and the day allow',
    (_plan, limits) => {
      const budget = new Budget(new MemoryBudget(), limits, 0.8);
      const perDay = Math.floor(86_400_000 / budget.pollIntervalMs());
      const perMinute = 60_000 / budget.pollIntervalMs();
      expect(perMinute).toBeLessThan(budget.perMinute);
      if (budget.perDay !== null) expect(perDay).toBeLessThanOrEqual(budget.perDay * POLL_DAY_SHARE);
    },
  );
});

describe('bounded reading', () => {
  it('reads an upstream body only up to its cap: a 200 MB chunked history answer is cut off, not held', async () => {
    let written = 0;
    let closed = false;
    setup = await behind.start({}, {}, (up) =>
      up.rule((_req, res, url) => {
        if (!url.pathname.startsWith('/v1/history/')) return false;
        res.writeHead(200, { 'Content-Type': 'application/json' });
        const chunk = Buffer.alloc(1 << 20, 'x');
        res.write('{"data":{"points":["');
        const pump = (): void => {
          while (!closed && written < 200 << 20) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          if (!closed) res.end('"]}}');
        };
        res.on('close', () => (closed = true));
        pump();
        return true;
      }),
    );
    const answer = await get(setup.relay.url, '/v1/history/usd?days=7');
    // The relay's own answer for an upstream body it cannot use: 502 bad_response.
    expect(answer.status).toBe(502);
    await until(() => closed, 10_000);
    // The cap is 8 M characters; socket buffers add a few MB.
    expect(written).toBeLessThan(48 << 20);
    expect((await health()).status).toBe(200);
  });
});

describe('the catalog', () => {
  it('caches a failure with backoff: a visitor asking again and again while it answers HTML costs one upstream request', async () => {
    setup = await behind.start({}, {}, (up) =>
      up.rule((_req, res, url) => {
        if (url.pathname !== '/v1/symbols') return false;
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<html>oops</html>');
        return true;
      }),
    );
    for (let i = 0; i < 20; i++) expect((await get(setup.relay.url, '/v1/symbols')).status).toBe(502);
    expect(setup.upstream.count(/^\/v1\/symbols/)).toBe(1);
  });

  it('serves the stale catalog while upstream fails, and asks upstream again only after a backoff', async () => {
    let offset = 0;
    let broken = false;
    setup = await behind.start({}, { now: () => Date.now() + offset }, (up) =>
      up.rule((_req, res, url) => {
        if (!broken || url.pathname !== '/v1/symbols') return false;
        res.writeHead(502, { 'Content-Type': 'text/html' });
        res.end('<html>bad gateway</html>');
        return true;
      }),
    );
    const fresh = await get(setup.relay.url, '/v1/symbols');
    expect(fresh.status).toBe(200);
    broken = true;
    offset = 2 * 60 * 60_000; // the cached catalog is now two hours old
    const before = setup.upstream.count(/^\/v1\/symbols/);
    for (let i = 0; i < 20; i++) {
      const answer = await get(setup.relay.url, '/v1/symbols');
      expect(answer.status).toBe(200);
      expect(answer.body).toBe(fresh.body);
    }
    expect(setup.upstream.count(/^\/v1\/symbols/) - before).toBe(1);
  });
});
