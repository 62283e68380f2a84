// What the relay takes of upstream quotes, whatever path they came by (DESIGN.md §7.1 "Corrections
// and clocks", "Nothing of the key, ever"): a bogus future date (any year, any offset) never
// blocks a later genuine quote, even one dated before the bogus one arrived; a quote holding the
// key reaches nobody. The stream path: the controlled upstream's own event stream; the poll path:
// its /v1/prices, with the stream answering HTML so that the relay polls.
import { describe, expect, it } from 'vitest';
import type { Quote } from '../../relay/from-src';
import { at, get, quote, until } from './helpers';
import { ownStreamRelays, relaysBehind, type Setup } from './upstream-helpers';

const relays = ownStreamRelays('intake');
const KEY = 'enterprise-key'; // the key startBehind gives the relay

/** `year` stays ahead of the clock: the next year ("near future", beyond the 5 min tolerance) too. */
const YEARS = [new Date().getUTCFullYear() + 1, 2999, 9999];
const OFFSETS = ['Z', '+03:30', '-05:00'];
const futureDate = (year: number, offset: string): string => `${year}-06-15T09:30:00${offset}`;

type Prices = { data: { quotes: Quote[] } };
async function heldPrice(base: string, symbol: string): Promise<string | undefined> {
  const answer = await get(base, `/v1/prices?symbols=${symbol}`);
  if (answer.status !== 200) return undefined;
  return (JSON.parse(answer.body) as Prices).data.quotes[0]?.price;
}

const behind = relaysBehind();

/** A relay that polls (its stream answers HTML); `/v1/prices` answers `served` for the symbols asked. */
async function pollingRelay(served: Map<string, Quote>): Promise<Setup> {
  return behind.start({}, { upstream: { streamRetryMs: 60_000 } }, (up) =>
    up.rule((_req, res, url) => {
      if (url.pathname === '/v1/stream') {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<html>no stream here</html>');
        return true;
      }
      if (url.pathname !== '/v1/prices') return false;
      const asked = (url.searchParams.get('symbols') ?? '').split(',');
      const quotes = asked.map((s) => served.get(s) ?? { ...quote(s, 0), updated_at: at(Date.now() - 3_600_000) });
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ data: { at: at(Date.now()), delay_seconds: 0, quotes } }));
      return true;
    }),
  );
}

describe('a bogus future date never blocks a later genuine quote dated a second before now', () => {
  const variants = YEARS.flatMap((year) => OFFSETS.map((offset) => [year, offset] as const));

  it.each(variants)('on the stream: %i, offset %s', async (year, offset) => {
    const { upstream, relay } = await relays.start(await relays.engine('memory'));
    upstream.send('quote', { ...quote('usd', 1), price: '9999', updated_at: futureDate(year, offset) });
    const visitor = relays.open(relay.url, 'usd');
    await visitor.event((e) => e.event === 'quotes' && e.data.includes('"9999"'));
    upstream.send('quote', { ...quote('usd', 1), price: '1001', updated_at: at(Date.now() - 1_000) });
    await visitor.event((e) => e.event === 'quote' && e.data.includes('"1001"'));
    expect(await heldPrice(relay.url, 'usd')).toBe('1001');
    // And an older quote still does not overwrite the genuine one.
    upstream.send('quote', { ...quote('usd', 1), price: '1000', updated_at: at(Date.now() - 60_000) });
    upstream.send('quote', { ...quote('usd', 1), price: '1002', updated_at: at(Date.now()) });
    await visitor.event((e) => e.event === 'quote' && e.data.includes('"1002"'));
    expect(visitor.events.some((e) => e.data.includes('"1000"'))).toBe(false);
  });

  it.each(YEARS.map((year, i) => [year, OFFSETS[i]!] as const))(
    'in a poll: %i, offset %s',
    async (year, offset) => {
      const served = new Map<string, Quote>();
      served.set('usd', { ...quote('usd', 1), price: '9999', updated_at: futureDate(year, offset) });
      const { relay, upstream } = await pollingRelay(served);
      await until(async () => (await heldPrice(relay.url, 'usd')) === '9999', 20_000);
      served.set('usd', { ...quote('usd', 1), price: '1001', updated_at: at(Date.now() - 1_000) });
      // The next poll (its interval is the plan's, about 15 s) brings the genuine quote.
      const polls = upstream.count(/^\/v1\/prices/);
      await until(() => upstream.count(/^\/v1\/prices/) > polls, 40_000);
      await until(async () => (await heldPrice(relay.url, 'usd')) === '1001', 5_000);
    },
    70_000,
  );
});

describe('a quote holding the key', () => {
  it('on the stream reaches no visitor, no price answer and no resume; the quotes after it flow', async () => {
    const { upstream, relay, logs } = await relays.start(await relays.engine('memory'));
    upstream.send('quote', { ...quote('usd', 1), price: '1000', updated_at: at(Date.now() - 5_000) });
    const visitor = relays.open(relay.url, 'usd');
    const snapshot = await visitor.event((e) => e.event === 'quotes' && e.data.includes('"1000"'));
    upstream.send('quote', { ...quote('usd', 1), title: `debug key=${KEY}`, updated_at: at(Date.now() - 4_000) });
    upstream.send('quote', { ...quote('usd', 1), unit: `x${KEY}`, price: '1001', updated_at: at(Date.now() - 3_000) });
    upstream.send('quote', { ...quote('usd', 1), price: '1002', updated_at: at(Date.now() - 2_000) });
    await visitor.event((e) => e.event === 'quote' && e.data.includes('"1002"'));
    const prices = await get(relay.url, '/v1/prices?symbols=usd');
    const resumed = behind.open(relay.url, 'usd', { lastEventId: snapshot.id });
    await resumed.event((e) => e.data.includes('"1002"'));
    for (const text of [visitor.raw, prices.body, resumed.raw]) expect(text).not.toContain(KEY);
    expect(prices.status).toBe(200);
    expect(logs.some((l) => l.includes('upstream_body_refused') && l.includes('"quotes"'))).toBe(true);
  });

  it('in a poll is dropped, and the prices answer carries the others', async () => {
    const served = new Map<string, Quote>();
    served.set('usd', { ...quote('usd', 1), title: `debug key=${KEY}`, updated_at: at(Date.now() - 1_000) });
    served.set('eur', { ...quote('eur', 1), price: '5000', updated_at: at(Date.now() - 1_000) });
    const { relay, upstream } = await pollingRelay(served);
    await until(async () => (await heldPrice(relay.url, 'eur')) === '5000', 20_000);
    const polls = upstream.count(/^\/v1\/prices/);
    await until(() => upstream.count(/^\/v1\/prices/) > polls, 10_000);
    const answer = await get(relay.url, '/v1/prices?symbols=usd,eur');
    expect(answer.status).toBe(200);
    expect(answer.body).not.toContain(KEY);
  });
});
