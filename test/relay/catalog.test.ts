// A big catalog (DESIGN.md §7.1, "HTTP done right"): parsed once per stored copy, not per request.
// A relay in front of a controllable upstream serving 20,000 symbols; every request that looks up
// the catalog (prices, history, the list) is answered from the copy the relay parsed when it came.
import { afterEach, expect, it, vi } from 'vitest';
import { readConfig } from '../../relay/config';
import { startRelay, type Relay } from '../../relay/server';
import { get } from './helpers';
import { startUpstream, type UpstreamDouble } from './upstream-double';

const SYMBOLS = Array.from({ length: 20_000 }, (_, i) => `sym_${i}`);
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const o of opened.splice(0)) await o.close();
});

let clock = Date.now();

async function start(): Promise<{ relay: Relay; upstream: UpstreamDouble }> {
  clock = Date.now();
  const now = (): number => clock;
  const upstream = await startUpstream({ symbols: SYMBOLS, now });
  opened.push(upstream);
  const config = readConfig({
    UPSTREAM_URL: upstream.url,
    UPSTREAM_KEY: 'k-catalog-0123456789',
    PORT: '0',
    CLIENT_RPM: '100000',
  });
  const relay = await startRelay({ ...config, upstreamUrl: upstream.url }, { logSink: () => {}, now });
  opened.unshift(relay);
  return { relay, upstream };
}

it('parses a big catalog once per upstream copy, not once per request', async () => {
  const { relay, upstream } = await start();
  // Parses of the catalog's body (a JSON text of the whole list), wherever they happen.
  const parse = vi.spyOn(JSON, 'parse');
  const catalogParses = (): number =>
    parse.mock.calls.filter(
      ([text]) => typeof text === 'string' && text.length > 500_000 && text.includes('"sym_19999"'),
    ).length;
  const paths = ['/v1/prices?symbols=nope', '/v1/history/nope?days=7', '/v1/symbols'];
  for (let i = 0; i < 30; i++) {
    const answer = await get(relay.url, paths[i % paths.length]!);
    expect(answer.status).toBe(i % 3 === 2 ? 200 : 404);
  }
  const fetched = upstream.requests.filter((r) => r.path === '/v1/symbols').length;
  expect(fetched).toBe(1);
  expect(catalogParses()).toBeLessThanOrEqual(1);
  // The relay's own count: one copy read and indexed for the endpoints.
  expect(relay.metrics.value('relay_catalog_reads_total')).toBe(1);
  // The same answer, validated by its ETag, from the kept copy.
  const list = await get(relay.url, '/v1/symbols');
  expect(JSON.parse(list.body).data.symbols).toHaveLength(SYMBOLS.length);
  const again = await get(relay.url, '/v1/symbols', { headers: { 'If-None-Match': list.headers.etag! } });
  expect(again.status).toBe(304);

  // The upstream's next copy (asked for after an hour) is read once, and served.
  upstream.symbols = () => ({
    status: 200,
    body: JSON.stringify({
      data: {
        symbols: [...SYMBOLS, 'sym_new'].map((symbol) => ({
          symbol,
          title: symbol,
          category: 'currency',
          unit: 'IRR',
        })),
      },
    }),
  });
  clock += 61 * 60_000;
  for (let i = 0; i < 30; i++) await get(relay.url, paths[i % paths.length]!);
  expect(upstream.requests.filter((r) => r.path === '/v1/symbols').length).toBe(2);
  expect(relay.metrics.value('relay_catalog_reads_total')).toBe(2);
  expect(JSON.parse((await get(relay.url, '/v1/symbols')).body).data.symbols.at(-1).symbol).toBe('sym_new');
});
