// Quotes as the upstream sends them, not as it should (DESIGN.md §7.1 "Corrections and clocks",
// "Bounded reading"): the controlled upstream serves its own event stream, and the relay keeps
// its QuoteState in memory (one process) or in a real Redis (a cluster of one).
import { createClient } from '@redis/client';
import { expect, it } from 'vitest';
import { at, get, quote, until, type Stream } from './helpers';
import { ownStreamRelays } from './upstream-helpers';

const relays = ownStreamRelays('quotes');

relays.eachEngine('quotes from upstream, %s state', (name) => {
  const relayOnOwnStream = async () => relays.start(await relays.engine(name));
  const prices = (s: Stream): string[] =>
    s.events.filter((e) => e.event === 'quote').map((e) => (JSON.parse(e.data) as { price: string }).price);

  it('applies a correction (same updated_at, other content), never lets a date from the future block later quotes, and drops an unreadable date', async () => {
    const { upstream, relay } = await relayOnOwnStream();
    const t0 = Date.now() - 60_000;
    upstream.send('quote', { ...quote('usd', 1), price: '1000', updated_at: at(t0) });
    const visitor = relays.open(relay.url, 'usd');
    await visitor.event((e) => e.event === 'quotes' && e.data.includes('"1000"'));

    // The service corrects the quote it sent: same time, another price.
    upstream.send('quote', { ...quote('usd', 1), price: '1001', updated_at: at(t0) });
    await until(() => prices(visitor).includes('1001'));
    // The same again is no change.
    upstream.send('quote', { ...quote('usd', 1), price: '1001', updated_at: at(t0) });
    // A clock gone wrong: the year 2999. Shown (as received now), but it blocks nothing later.
    upstream.send('quote', { ...quote('usd', 1), price: '2999', updated_at: '2999-01-01T00:00:00Z' });
    await until(() => prices(visitor).includes('2999'));
    const future = visitor.events.filter((e) => e.event === 'quote').at(-1)!;
    expect(Date.parse((JSON.parse(future.data) as { updated_at: string }).updated_at)).toBeLessThanOrEqual(Date.now());
    // A date Date.parse reads but that is no RFC 3339 date-time, and newer than anything held: dropped.
    upstream.send('quote', {
      ...quote('usd', 1),
      price: '6666',
      updated_at: new Date(Date.now() + 2_000).toUTCString(),
    });
    upstream.send('quote', { ...quote('usd', 1), price: '1002', updated_at: at(Date.now() + 1_000) });
    await until(() => prices(visitor).includes('1002'));
    expect(prices(visitor)).toEqual(['1001', '2999', '1002']);
    const held = JSON.parse((await get(relay.url, '/v1/prices?symbols=usd')).body) as {
      data: { quotes: { price: string }[] };
    };
    expect(held.data.quotes[0]!.price).toBe('1002');
  });

  it('drops quotes for ids outside the catalog: thousands of them hold no memory and reach nobody', async () => {
    const { upstream, relay } = await relayOnOwnStream();
    upstream.send('quote', { ...quote('usd', 1), updated_at: at(Date.now() - 1_000) });
    const visitor = relays.open(relay.url, 'usd');
    await visitor.event((e) => e.event === 'quotes');
    const junk = Array.from({ length: 5_000 }, (_, i) => ({
      ...quote(`zz_${i}`, 1),
      updated_at: at(Date.now() - 1_000),
    }));
    upstream.send('quotes', { at: at(Date.now()), quotes: junk });
    upstream.send('quote', { ...quote('usd', 1), price: '4242', updated_at: at(Date.now()) });
    await visitor.event((e) => e.event === 'quote');
    const metrics = (await get(relay.url, '/metrics')).body;
    expect(metrics).toMatch(/^relay_upstream_quotes_dropped_total 5000$/m);
    expect((await get(relay.url, '/v1/prices?symbols=zz_1')).status).toBe(404);
    expect(
      visitor.events.filter((e) => e.event === 'quote').map((e) => (JSON.parse(e.data) as { symbol: string }).symbol),
    ).toEqual(['usd']);
  });

  it('drops a stream event larger than its cap: the connection is reset, quotes flow on the next one', async () => {
    const { upstream, relay } = await relayOnOwnStream();
    upstream.send('quote', { ...quote('usd', 1), updated_at: at(Date.now() - 5_000) });
    const visitor = relays.open(relay.url, 'usd');
    await visitor.event((e) => e.event === 'quotes');
    const opened = upstream.count(/^\/v1\/stream/);
    // 6 M characters of one event's data, never terminated (the cap is 4 M).
    upstream.sendRaw('event: quote\n');
    for (let i = 0; i < 6; i++) upstream.sendRaw(`data: ${'x'.repeat(1_000_000)}\n`);
    await until(() => upstream.count(/^\/v1\/stream/) > opened && upstream.openStreams === 1, 15_000);
    upstream.send('quote', { ...quote('usd', 1), price: '5150', updated_at: at(Date.now()) });
    await visitor.event((e) => e.event === 'quote' && e.data.includes('"5150"'));
  });
});

it('a Redis that refuses every change (out of memory) is logged once, and once when it takes them again; what was held is served', async () => {
  const { upstream, relay, logs } = await relays.start(await relays.redisEngine());
  const t0 = Date.now() - 60_000;
  upstream.send('quote', { ...quote('usd', 1), price: '3000', updated_at: at(t0) });
  const visitor = relays.open(relay.url, 'usd');
  await visitor.event((e) => e.event === 'quotes' && e.data.includes('"3000"'));
  const admin = createClient({ url: (await relays.redis()).url });
  await admin.connect();
  const refused = async () => Number(/errorstat_OOM:count=(\d+)/.exec(await admin.info('errorstats'))?.[1] ?? 0);
  try {
    const before = await refused();
    await admin.configSet('maxmemory-policy', 'noeviction');
    await admin.configSet('maxmemory', '1');
    for (let i = 1; i <= 5; i++)
      upstream.send('quote', { ...quote('usd', 1), price: String(3000 + i), updated_at: at(t0 + i) });
    // Five changes refused (and offered again each second): one line in the log.
    await until(async () => (await refused()) >= before + 5, 10_000);
  } finally {
    await admin.configSet('maxmemory', '0');
    await admin.close();
  }
  await until(() => logs.some((l) => l.includes('ingest_recovered')), 10_000);
  await visitor.event((e) => e.event === 'quote' && e.data.includes('"3005"'));
  expect(logs.filter((l) => l.includes('ingest_failed'))).toHaveLength(1);
  expect(logs.filter((l) => l.includes('ingest_recovered'))).toHaveLength(1);
});
