// Refusals scoped to what they refuse (DESIGN.md §7.1 "A failure stays where it happened"): a 403
// naming symbols the plan does not give (SERVICE-SPEC §8) drops those symbols, not the relay; a
// 403 that refuses symbols which worked is the key, as before.
import { describe, expect, it } from 'vitest';
import { control, get, until } from './helpers';
import { health, relaysBehind, streamRequests, type Setup } from './upstream-helpers';

const behind = relaysBehind();
let setup: Setup | undefined;

const priceOf = (e: { data: string }): string => (JSON.parse(e.data) as { price: string }).price;
const names = (search: string, symbol: string): boolean =>
  (new URLSearchParams(search).get('symbols') ?? '').split(',').includes(symbol);

describe('a 403 on prices or the stream', () => {
  it.each([['gbp'], ['aed']])(
    'naming a symbol outside the plan (%s) drops that symbol: the relay stays up and carries the others',
    async (restricted) => {
      setup = await behind.start({}, { upstream: { probeMs: 300, resubscribeMs: 300 } }, (up) =>
        up.rule((_req, res, url) => {
          if (!/^\/v1\/(prices|stream)$/.test(url.pathname) || !names(url.search, restricted)) return false;
          res.writeHead(403, { 'Content-Type': 'application/json' });
          res.end('{"error":{"code":"forbidden","message":"not in your plan"}}');
          return true;
        }),
      );
      const visitor = behind.open(setup.relay.url, 'usd');
      await visitor.event((e) => e.event === 'quotes');
      // One anonymous request for the restricted symbol.
      await get(setup.relay.url, `/v1/prices?symbols=${restricted}`);
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
      await get(setup.relay.url, `/v1/prices?symbols=${restricted}`);
      expect(asked()).toBe(refused);
      expect(streamRequests(upstream).at(-1)).not.toContain(restricted);
      expect((await health(setup.relay.url)).status).toBe(200);
    },
    40_000,
  );

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
