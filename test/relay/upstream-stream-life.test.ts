// Upstream stream connections that open but do not work (DESIGN.md §7.1 "Polling is a fallback",
// StreamPolicy in relay/stream-policy.ts): one that never completes a readable event is replaced
// and the relay polls meanwhile; one that ends after each snapshot counts as failing, and its
// reopens are paced by the budget.
import { afterEach, describe, expect, it } from 'vitest';
import { control, get, Stream, until } from './helpers';
import { relaysBehind, type Setup } from './upstream-helpers';

const behind = relaysBehind();
let setup: Setup | undefined;
let talk: NodeJS.Timeout | undefined;
afterEach(() => clearInterval(talk));

const priceOf = (e: { data: string }): string => (JSON.parse(e.data) as { price: string }).price;

const open = (symbols: string): Stream => behind.open(setup!.relay.url, symbols);

/** Changes usd `times` times, each awaited at `visitor`, each after an upstream request more (a poll or a stream). */
async function changesArrive(visitor: Stream, times: number, timeoutMs: number): Promise<void> {
  for (let i = 1; i <= times; i++) {
    const seen = setup!.upstream.seen.length;
    await until(() => setup!.upstream.seen.length > seen, timeoutMs);
    const price = String(7_100_000 + i);
    await control(setup!.sandbox.url, 'market', { set: [{ symbol: 'usd', price }] });
    await visitor.event((e) => e.event === 'quote' && priceOf(e) === price, 0, timeoutMs);
  }
}

describe('a stream that stays open but never completes a readable event', () => {
  it.each([
    ['one byte at a time inside an event never finished', 'event: quote\ndata: {"symbol":"usd"', 'x'],
    ['malformed events only', '', 'event: quote\ndata: {"symbol": oops\n\n'],
    ['heartbeats only, no quotes', '', ': ping\n\n'],
  ])('%s: is replaced, and the relay polls meanwhile so changes reach visitors', async (_name, first, each) => {
    setup = await behind.start({}, { upstream: { staleAfterMs: 1_500 } });
    const visitor = open('usd');
    await visitor.event((e) => e.event === 'quotes');
    // The upstream's stream breaks; every stream the relay opens next says nothing readable.
    setup.upstream.ownStream();
    setup.upstream.dropStreams();
    await until(() => setup!.upstream.openStreams === 1, 10_000);
    setup.upstream.sendRaw(first);
    talk = setInterval(() => setup!.upstream.sendRaw(each), 100);
    const opened = setup.upstream.count(/^\/v1\/stream/);
    const polls = setup.upstream.count(/^\/v1\/prices/);
    await changesArrive(visitor, 2, 10_000);
    expect(setup.upstream.count(/^\/v1\/prices/)).toBeGreaterThan(polls);
    expect(setup.upstream.count(/^\/v1\/stream/)).toBeGreaterThan(opened);
    expect(setup.logs.some((l) => l.includes('upstream_stream_unreadable'))).toBe(true);
  });

  it('is not current meanwhile: /healthz says so until a poll brings data', async () => {
    setup = await behind.start({}, { upstream: { staleAfterMs: 1_500 } }, (up) =>
      up.fail(/^\/v1\/prices/, 503, 'unavailable'),
    );
    const visitor = open('usd');
    await visitor.event((e) => e.event === 'quotes');
    setup.upstream.ownStream();
    setup.upstream.dropStreams();
    await until(() => setup!.upstream.openStreams === 1, 10_000);
    talk = setInterval(() => setup!.upstream.sendRaw(': ping\n\n'), 100);
    await until(async () => (await get(setup!.relay.url, '/healthz')).status === 503, 10_000);
    const prices = await get(setup.relay.url, '/v1/prices?symbols=usd');
    expect(prices.status).toBe(200);
    expect(prices.headers.warning).toMatch(/^110/);
  });
});

describe('a stream that ends after each snapshot', () => {
  // basic's minute (24 of 30) and a day of 57,600 of 72,000: a stream open at most every 6 s
  // (the quarter of the day the poll leaves), a poll every 2.6 s.
  const env = { PLAN: 'basic', UPSTREAM_RPD: '72000' };
  const gapMs = 6_000;

  it.each([[0], [3_000]])(
    'with retry: %i counts as failing: its opens are paced by the budget, and polls carry the changes',
    async (retry) => {
      let id = 0;
      setup = await behind.start(env, {}, (up) =>
        up.rule((req, res, url) => {
          if (url.pathname !== '/v1/stream') return false;
          // The snapshot from the sandbox's own prices, then the end of the connection.
          void fetch(`${up.target}/v1/prices${url.search}`, { headers: { 'X-API-Key': 'enterprise-key' } })
            .then((answer) => answer.json() as Promise<{ data: unknown }>)
            .then((body) => {
              res.writeHead(200, { 'Content-Type': 'text/event-stream' });
              res.end(`retry: ${retry}\nid: ${++id}\nevent: quotes\ndata: ${JSON.stringify(body.data)}\n\n`);
            })
            .catch(() => res.destroy());
          req.resume();
          return true;
        }),
      );
      const visitor = open('usd');
      await visitor.event((e) => e.event === 'quotes');
      const began = Date.now();
      await changesArrive(visitor, 5, 15_000);
      const opens = setup.upstream.seen.filter((s) => s.path === '/v1/stream' && s.at >= began).length;
      expect(opens).toBeLessThanOrEqual(2 + (Date.now() - began) / gapMs);
      // The budget is not spent: history is served.
      expect((await get(setup.relay.url, '/v1/history/usd?days=7')).status).toBe(200);
    },
    90_000,
  );
});
