// A fragment's validator is its body's (docs/relay.md "Caching"): a cache that revalidates (a CDN,
// nginx with proxy_cache_revalidate) must never keep a body past its snapshot's freshness, since
// the client trusts a snapshot for 30 s from its `at` and asks /v1/prices after that. Over real
// HTTP to a relay on a frozen sandbox, the relay's clock injected: only the same bytes get a 304.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Quote } from '../../relay/from-src';
import { get, pushQuote, startPair, until, type Pair } from './helpers';

let pair: Pair;
let dist: string;
/** The relay's clock (epoch ms), moved by the tests. */
let clock = Date.now();
beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'relay-etag-'));
  await writeFile(join(dist, 'embed.html'), '<!doctype html><html lang="fa"><head></head><body></body></html>');
  pair = await startPair({ CLIENT_RPM: '1000000' }, { now: () => clock, distDir: dist });
});
afterAll(async () => {
  await pair.close();
  await rm(dist, { recursive: true });
});

function snapshotOf(body: string): { event_id: string; data: { at: string; quotes: Quote[] } } {
  return JSON.parse(/<script type="application\/json">([\s\S]*?)<\/script>/.exec(body)![1]!) as {
    event_id: string;
    data: { at: string; quotes: Quote[] };
  };
}

const revalidate = (path: string, etag: string) => get(pair.relay.url, path, { headers: { 'If-None-Match': etag } });

describe('a fragment’s ETag', () => {
  for (const path of ['/render/price-board?symbols=usd&chart=none', '/embed.html?symbols=usd&chart=none']) {
    it(`of ${path.split('?')[0]} changes with its snapshot’s moment; the same body still gets a 304`, async () => {
      const first = await get(pair.relay.url, path);
      expect(snapshotOf(first.body).data.at).toBe(new Date(clock).toISOString());
      const etag = first.headers.etag!;
      // The same moment and quotes: the same bytes.
      const same = await revalidate(path, etag);
      expect([same.status, same.body]).toEqual([304, '']);
      // Ten seconds on, nothing else changed: a new snapshot, so a new body and validator.
      clock += 10_000;
      const later = await revalidate(path, etag);
      expect(later.status).toBe(200);
      expect(snapshotOf(later.body).data.at).toBe(new Date(clock).toISOString());
      expect(later.headers.etag).not.toBe(etag);
      expect((await revalidate(path, later.headers.etag!)).status).toBe(304);
    });
  }

  it('changes with its snapshot’s event id, its quotes unchanged (another symbol moved)', async () => {
    const path = '/render/price-board?symbols=usd&chart=none';
    const first = await get(pair.relay.url, path);
    const before = snapshotOf(first.body);
    // A new eur price, pushed through the sandbox's stream: a new event id for every snapshot.
    const eur = snapshotOf((await get(pair.relay.url, '/render/price-board?symbols=eur&chart=none')).body).data
      .quotes[0]!;
    const price = String(BigInt(eur.price_toman) + 1234n);
    await pushQuote(pair.sandbox.url, '9300', { ...eur, price: `${price}0`, price_toman: price });
    const next = await until(async () => {
      const answer = await revalidate(path, first.headers.etag!);
      return answer.status === 200 ? answer : undefined;
    }, 10_000);
    const after = snapshotOf(next.body);
    expect(after.event_id).not.toBe(before.event_id);
    expect(after.data).toEqual(before.data);
    expect(next.headers.etag).not.toBe(first.headers.etag);
  });
});
