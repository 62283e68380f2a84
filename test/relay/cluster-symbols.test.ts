// A symbol first asked for on a follower (DESIGN.md §7 "Cluster"): followers never spend upstream,
// so the leader's upstream must carry what any member's visitors ask for. Two relay processes on one
// Redis, the sandbox upstream; every symbol here is outside the board's defaults, so no member
// carries it before a visitor asks.
import { describe, expect, it } from 'vitest';
import { clusterBed, leaderOf } from './cluster-helpers';
import { control, get, Stream, until, upstreamRequests } from './helpers';

const bed = clusterBed();

const quotesOf = (body: string): { symbol: string; price: string }[] =>
  (JSON.parse(body) as { data: { quotes: { symbol: string; price: string }[] } }).data.quotes;

/** A follower answers within `ms` (well inside its 8 s wait for data). */
async function timed<T>(ms: number, answer: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const result = await answer();
  expect(Date.now() - started).toBeLessThan(ms);
  return result;
}

describe('a symbol first asked for on a follower', { timeout: 90_000 }, () => {
  it('is live within seconds: prices, the stream (and its next change), and the day chart', async () => {
    const relays = await bed.relays(['a', 'b']);
    const leader = await leaderOf(relays);
    const follower = relays.find((r) => r !== leader)!;

    // /v1/prices first (gbp), together with a default symbol.
    const prices = await timed(6_000, () => get(follower.url, '/v1/prices?symbols=usd,gbp'));
    expect(prices.status).toBe(200);
    expect(quotesOf(prices.body).map((q) => q.symbol)).toEqual(['usd', 'gbp']);

    // The stream first (chf): its snapshot may be empty, then the quote comes, then each change.
    const stream = new Stream(follower.url, 'chf');
    bed.streams.push(stream);
    await stream.event((e) => e.event === 'quotes');
    await until(() => stream.events.some((e) => e.data.includes('"chf"')), 6_000);
    await control(bed.sandbox.url, 'market', { set: [{ symbol: 'chf', price: '777001' }] });
    await stream.event((e) => e.event === 'quote' && e.data.includes('"777001"'));

    // Today's chart first (aed): 503 at once until its first quote (the board asks again after
    // Retry-After), and the leader fetches it meanwhile; then the chart is there.
    const first = await get(follower.url, '/v1/history/aed?days=1');
    expect(first.status).toBe(503);
    await until(
      async () => (await upstreamRequests(bed.sandbox)).some((r) => /(=|,|%2C)aed(,|%2C|&|$)/i.test(r.url)),
      6_000,
    );
    expect((await get(follower.url, '/v1/prices?symbols=aed')).status).toBe(200);
    const day = await get(follower.url, '/v1/history/aed?days=1');
    expect(day.status).toBe(200);
    expect((JSON.parse(day.body) as { data: { points: unknown[] } }).data.points.length).toBeGreaterThan(0);
  });

  it('stays carried when the member that fetched it stops leading, and is fetched when asked on a follower of the next leader', async () => {
    const relays = await bed.relays(['a', 'b', 'c']);
    const leader = await leaderOf(relays);
    const [first, second] = relays.filter((r) => r !== leader);
    expect((await get(first!.url, '/v1/prices?symbols=try')).status).toBe(200);

    leader.kill('SIGKILL');
    const next = await leaderOf([first!, second!], 15_000);
    const other = next === first ? second! : first!;
    // The next leader carries what a follower wanted before it led: a change reaches the other one.
    const stream = new Stream(other.url, 'try');
    bed.streams.push(stream);
    await stream.event((e) => e.event === 'quotes');
    await control(bed.sandbox.url, 'market', { set: [{ symbol: 'try', price: '888002' }] });
    await stream.event((e) => e.event === 'quote' && e.data.includes('"888002"'), 0, 15_000);
    // And a new symbol asked on the follower of the new leader.
    const jpy = await timed(6_000, () => get(other.url, '/v1/prices?symbols=jpy'));
    expect(jpy.status).toBe(200);
    expect(quotesOf(jpy.body).map((q) => q.symbol)).toEqual(['jpy']);
  });
});
