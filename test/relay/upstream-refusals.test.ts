// Refusals scoped to what they refuse (DESIGN.md §7.1 "A failure stays where it happened"): a 403
// naming symbols the plan does not give (SERVICE-SPEC §8) drops those symbols, not the relay; a
// 403 that refuses symbols which worked is the key, as before. A 403 before anything worked (the
// default symbols, the first visitor's) is sorted out: the catalog tells the key from the symbols.
import { describe, expect, it } from 'vitest';
import { control, get, until } from './helpers';
import { health, relaysBehind, streamRequests, type ControlledUpstream, type Setup } from './upstream-helpers';

const behind = relaysBehind();
let setup: Setup | undefined;

const priceOf = (e: { data: string }): string => (JSON.parse(e.data) as { price: string }).price;
const names = (search: string, symbol: string): boolean =>
  (new URLSearchParams(search).get('symbols') ?? '').split(',').includes(symbol);

/** An upstream whose plan leaves out `restricted`: a 403 to any prices or stream request naming one. */
const planWithout =
  (restricted: string[]) =>
  (up: ControlledUpstream): void =>
    void up.rule((_req, res, url) => {
      if (!/^\/v1\/(prices|stream)$/.test(url.pathname) || !restricted.some((s) => names(url.search, s))) return false;
      res.writeHead(403, { 'Content-Type': 'application/json' });
      res.end('{"error":{"code":"forbidden","message":"not in your plan"}}');
      return true;
    });

describe('a 403 on prices or the stream', () => {
  it.each([['gbp'], ['aed']])(
    'naming a symbol outside the plan (%s) drops that symbol: the relay stays up and carries the others',
    async (restricted) => {
      setup = await behind.start({}, { upstream: { probeMs: 300, resubscribeMs: 300 } }, planWithout([restricted]));
      const visitor = behind.open(setup.relay.url, 'usd');
      await visitor.event((e) => e.event === 'quotes');
      // One anonymous request for the restricted symbol: refused as soon as the upstream refused it.
      expect((await get(setup.relay.url, `/v1/prices?symbols=${restricted}`)).status).toBe(404);
      await until(() => setup!.logs.some((l) => l.includes('upstream_symbols_refused')), 10_000);
      const upstream = setup.upstream;
      const asked = () => upstream.seen.filter((s) => names(s.search, restricted)).length;
      const refused = asked();
      expect(setup.logs.filter((l) => l.includes('upstream_key_refused'))).toEqual([]);
      expect(await health(setup.relay.url)).toEqual({ status: 200, upstream: 'stream' });
      // Changes flow on, on the stream.
      await control(setup.sandbox.url, 'market', { set: [{ symbol: 'usd', price: '6161616' }] });
      expect(priceOf(await visitor.event((e) => e.event === 'quote' && priceOf(e) === '6161616'))).toBe('6161616');
      // Asked again: answered without asking upstream for it; the stream never carries it again.
      expect((await get(setup.relay.url, `/v1/prices?symbols=${restricted}`)).status).toBe(404);
      expect(asked()).toBe(refused);
      expect(streamRequests(upstream).at(-1)).not.toContain(restricted);
      expect((await health(setup.relay.url)).status).toBe(200);
    },
    40_000,
  );

  it.each([
    ['gbp among SYMBOLS', { SYMBOLS: 'usd,gbp,eur,aed' }, ['gbp'], 'eur'],
    ['usd, a default symbol', {}, ['usd'], 'eur'],
    ['two default symbols', {}, ['usd', 'ons'], 'gold_18'],
  ])(
    'naming %s on the very first requests: the relay finds the refused ones and carries the others',
    async (_name, env: Record<string, string>, restricted, good) => {
      setup = await behind.start(env, { upstream: { probeMs: 300, resubscribeMs: 300 } }, planWithout(restricted));
      const { relay, upstream } = setup;
      await until(async () => (await health(relay.url)).status === 200, 15_000);
      expect(setup.logs.filter((l) => l.includes('upstream_key_refused'))).toEqual([]);
      const refusedLogged = setup.logs
        .filter((l) => l.includes('upstream_symbols_refused'))
        .flatMap((l) => (JSON.parse(l) as { symbols: string[] }).symbols);
      expect(refusedLogged.sort()).toEqual([...restricted].sort());
      // Bounded: each isolation costs one catalog request and at most two per halving of the symbols
      // asked (5 at most here), one poll aside.
      expect(upstream.count(/^\/v1\/(prices|symbols)/)).toBeLessThanOrEqual(restricted.length * (1 + 2 * 3) + 1);
      // The other symbols are live on the stream.
      const visitor = behind.open(relay.url, good);
      await visitor.event((e) => e.event === 'quotes');
      await control(setup.sandbox.url, 'market', { set: [{ symbol: good, price: '7272727' }] });
      await visitor.event((e) => e.event === 'quote' && priceOf(e) === '7272727');
      // A refused symbol is refused at once, without asking upstream; beside a good one, the good one is served.
      const asked = upstream.seen.length;
      const alone = await get(relay.url, `/v1/prices?symbols=${restricted.join(',')}`);
      expect(alone.status).toBe(404);
      expect((JSON.parse(alone.body) as { error: { code: string } }).error.code).toBe('unknown_symbol');
      expect(upstream.seen.length).toBe(asked);
      const mixed = await get(relay.url, `/v1/prices?symbols=${good},${restricted[0]!}`);
      expect(mixed.status).toBe(200);
      const quotes = (JSON.parse(mixed.body) as { data: { quotes: Array<{ symbol: string; price: string }> } }).data
        .quotes;
      expect(quotes.map((q) => [q.symbol, q.price])).toEqual([[good, '7272727']]);
      expect(upstream.seen.length).toBe(asked);
      expect(await health(relay.url)).toEqual({ status: 200, upstream: 'stream' });
    },
    40_000,
  );

  it('a 403 on everything from the first request on is a refused key: the relay halts', async () => {
    setup = await behind.start({}, { upstream: { probeMs: 60_000 } }, (up) => up.fail(/^\/v1\//, 403, 'forbidden'));
    await until(async () => (await health(setup!.relay.url)).upstream === 'key_refused', 10_000);
    expect((await health(setup.relay.url)).status).toBe(503);
    expect(setup.logs.filter((l) => l.includes('upstream_key_refused'))).toHaveLength(1);
    expect(setup.logs.some((l) => l.includes('upstream_symbols_refused'))).toBe(false);
  });

  it('refusing the symbols that worked is a refused key: the relay halts and probes', async () => {
    setup = await behind.start({}, { upstream: { probeMs: 60_000 } });
    const visitor = behind.open(setup.relay.url, 'usd');
    await visitor.event((e) => e.event === 'quotes');
    setup.upstream.fail(/^\/v1\/(prices|stream)/, 403, 'forbidden');
    setup.upstream.dropStreams();
    await until(async () => (await health(setup!.relay.url)).upstream === 'key_refused', 10_000);
    expect(setup.logs.some((l) => l.includes('upstream_key_refused'))).toBe(true);
  });
});
