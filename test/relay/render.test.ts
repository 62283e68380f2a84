// The relay's rendered first paint over real HTTP (DESIGN.md §13): GET /render/price-board from a
// relay over the sandbox, as a host page's include gets it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Quote } from '../../relay/from-src';
import { control, get, startPair, until, type Pair } from './helpers';

let pair: Pair;
let base: string;
beforeAll(async () => {
  pair = await startPair();
  base = pair.relay.url;
});
afterAll(() => pair.close());

/** The JSON snapshot a fragment carries in light DOM. */
function snapshotOf(body: string): { event_id: string; data: { quotes: Quote[] } } {
  const m = /<script type="application\/json">([\s\S]*?)<\/script>/.exec(body);
  expect(m, 'a JSON snapshot').not.toBeNull();
  return JSON.parse(m![1]!) as { event_id: string; data: { quotes: Quote[] } };
}

/** The text a visitor reads: the markup's text nodes, without the style block and the snapshot. */
function visibleText(body: string): string {
  return body
    .replace(/<style>[\s\S]*?<\/style>/g, '')
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]*>/g, ' ');
}

/** An integer's Persian digits grouped as the board shows them. */
const persian = (n: string): string => BigInt(n).toLocaleString('fa-IR');

describe('GET /render/price-board', () => {
  it('answers the element with a declarative shadow root holding the relay’s prices in Persian digits', async () => {
    const answer = await get(base, '/render/price-board?symbols=usd,eur&chart=none');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('public, max-age=2, stale-while-revalidate=30');
    expect(answer.body).toMatch(
      /<price-board\s+symbols="usd,eur"\s+chart="none"[^>]*><template [^>]*shadowrootmode="open">/,
    );
    const prices = JSON.parse((await get(base, '/v1/prices?symbols=usd,eur')).body) as { data: { quotes: Quote[] } };
    const text = visibleText(answer.body);
    for (const quote of prices.data.quotes) {
      expect(text).toContain(quote.title);
      expect(text).toContain(persian(quote.price_toman));
    }
    expect(text).not.toMatch(/[0-9]/);
  });

  it('carries the quotes as a JSON snapshot that matches /v1/prices, with a stream event id', async () => {
    const answer = await get(base, '/render/price-board?symbols=usd,eur');
    const snapshot = snapshotOf(answer.body);
    const prices = JSON.parse((await get(base, '/v1/prices?symbols=usd,eur')).body) as { data: { quotes: Quote[] } };
    expect(snapshot.data.quotes).toEqual(prices.data.quotes);
    expect(snapshot.event_id).toMatch(/^\d+$/);
    // Light DOM after the shadow root: data, never executed.
    expect(answer.body.indexOf('<script type="application/json">')).toBeGreaterThan(answer.body.indexOf('</template>'));
  });

  it('answers 304 to its ETag, and a new ETag for another query', async () => {
    const path = '/render/price-board?symbols=usd&chart=none';
    const first = await get(base, path);
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
    const again = await get(base, path, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    const other = await get(base, '/render/price-board?symbols=eur&chart=none');
    expect(other.headers.etag).not.toBe(etag);
  });

  it('renders a bad query as a 200 fragment in Persian visitor words, naming the attribute to the developer only', async () => {
    const answer = await get(base, '/render/price-board?symbols=usd&poll-interval=1&chart=bogusvalue');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['x-price-board-invalid']).toBe('poll-interval,chart');
    expect(answer.body).toContain('shadowrootmode="open"');
    const text = visibleText(answer.body).replace(/\s+/g, ' ').trim();
    expect(text).toContain('قیمت‌ها فعلاً در دسترس نیست.');
    expect(text).not.toMatch(/[A-Za-z]/);
    // The bad values are not echoed into the host's page.
    expect(answer.body).not.toContain('bogusvalue');
    expect(answer.body).not.toContain('<script type="application/json">');
  });

  it('renders a quote’s title holding markup as text', async () => {
    await get(base, '/render/price-board?symbols=usd');
    const prices = JSON.parse((await get(base, '/v1/prices?symbols=usd')).body) as { data: { quotes: Quote[] } };
    const markup = '<img src=x onerror=alert(1)>دلار';
    const quote = { ...prices.data.quotes[0]!, title: markup, updated_at: new Date().toISOString() };
    await control(pair.sandbox.url, 'push', {
      event: 'quotes',
      id: '9000',
      data: JSON.stringify({ at: new Date().toISOString(), quotes: [quote] }),
    });
    const body = await until(async () => {
      const answer = await get(base, '/render/price-board?symbols=usd&chart=none');
      return answer.body.includes('onerror') ? answer.body : undefined;
    }, 10_000);
    expect(body).not.toContain('<img');
    expect(body).toContain('&lt;img src=x onerror=alert(1)&gt;دلار');
  });

  it('never carries a key or a service address from the query into the page', async () => {
    const answer = await get(
      base,
      '/render/price-board?symbols=usd&api-key=visitor-secret&base-url=https://evil.example',
    );
    expect(answer.status).toBe(200);
    expect(answer.body).not.toContain('visitor-secret');
    expect(answer.body).not.toContain('evil.example');
  });

  it('is a 404 for a widget it does not render', async () => {
    expect((await get(base, '/render/price-chart?symbols=usd')).status).toBe(404);
  });
});

describe('GET /render/price-ticker and /render/price-converter', () => {
  for (const tag of ['price-ticker', 'price-converter']) {
    it(`answers <${tag}> with the relay’s usd price in Persian digits and its snapshot`, async () => {
      const answer = await get(base, `/render/${tag}?symbols=usd,eur`);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.body).toMatch(
        new RegExp(`<${tag}\\s+symbols="usd,eur"[^>]*><template [^>]*shadowrootmode="open">`),
      );
      const prices = JSON.parse((await get(base, '/v1/prices?symbols=usd,eur')).body) as { data: { quotes: Quote[] } };
      const usd = prices.data.quotes.find((q) => q.symbol === 'usd')!;
      expect(visibleText(answer.body)).toContain(persian(usd.price_toman));
      expect(snapshotOf(answer.body).data.quotes).toEqual(prices.data.quotes);
    });
  }
});

describe('GET /render/price-board while upstream data is stale', () => {
  it('serves the held prices marked by Age and Warning: 110, still a 200 fragment', async () => {
    let skew = 0;
    const stalePair = await startPair({}, { now: () => Date.now() + skew });
    try {
      await control(stalePair.sandbox.url, 'faults', {
        rules: ['/v1/stream', '/v1/prices'].map((path) => ({ path, kind: 'status', status: 503 })),
      });
      const fresh = await get(stalePair.relay.url, '/render/price-board?symbols=usd&chart=none');
      expect(fresh.headers.warning).toBeUndefined();
      const usd = snapshotOf(fresh.body).data.quotes[0]!;
      // Two minutes on with nothing new from upstream: the held quote is all the relay has.
      skew = 2 * 60_000;
      const stale = await get(stalePair.relay.url, '/render/price-board?symbols=usd&chart=none');
      expect(stale.status).toBe(200);
      expect(Number(stale.headers.age)).toBeGreaterThanOrEqual(60);
      expect(stale.headers.warning).toMatch(/^110 /);
      expect(visibleText(stale.body)).toContain(persian(usd.price_toman));
    } finally {
      await stalePair.close();
    }
  });
});
