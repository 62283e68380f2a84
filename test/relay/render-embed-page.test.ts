// embed.html from the relay over real HTTP (DESIGN.md §13): the built page with its widget rendered
// in its body (declarative shadow root, Persian prices, snapshot), cached like a fragment; an invalid value
// renders with its default, a failed render the bare element, an address past its limit the page as
// built (files are not visits). And INCLUDERS: a site's server fetching fragments for all its
// visitors is not limited as one visitor, for /render/ and the page only.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../relay/config';
import type { Quote } from '../../relay/from-src';
import { embedTag } from '../../relay/render/embed-page';
import { readWidget, WIDGET_TAGS } from '../../src/embed/params';
import { PriceTicker } from '../../src/ticker/price-ticker';
import { get, startPair, type Pair } from './helpers';

/** The page as the build writes it (dist/embed.html's shape). */
const PAGE = `<!doctype html>
<html lang="fa" dir="rtl">
  <head>
    <meta charset="utf-8" />
    <script type="module" crossorigin src="./assets/embed-page-X.js"></script>
  </head>
  <body></body>
</html>`;

let pair: Pair;
let dist: string;
beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'relay-embed-'));
  await writeFile(join(dist, 'embed.html'), PAGE);
  pair = await startPair({ CLIENT_RPM: '1000000' }, { distDir: dist });
});
afterAll(async () => {
  await pair.close();
  await rm(dist, { recursive: true });
});

const persian = (n: string): string => BigInt(n).toLocaleString('fa-IR');

describe('embed.html from the relay', () => {
  it('is the built page with the widget rendered in its body: a declarative shadow root with Persian prices', async () => {
    const answer = await get(pair.relay.url, '/embed.html?symbols=usd,eur&chart=none&key=anything');
    expect([answer.status, answer.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    expect(answer.headers['cache-control']).toBe('public, max-age=2, stale-while-revalidate=30');
    // The page's own head and script stay; the element, its root and snapshot are in the body.
    expect(answer.body.startsWith(PAGE.slice(0, PAGE.indexOf('<body>') + 6))).toBe(true);
    expect(answer.body).toMatch(
      /<body><price-board\s[^>]*symbols="usd,eur"[^>]*chart="none"[^>]*><template [^>]*shadowrootmode="open">[\s\S]*<script type="application\/json">[\s\S]*<\/price-board><\/body>/,
    );
    // No module script of its own (the page has one), and never the key.
    expect(answer.body).not.toContain('/price-board.js');
    expect(answer.body).not.toContain('anything');
    const quotes = (
      JSON.parse((await get(pair.relay.url, '/v1/prices?symbols=usd,eur')).body) as { data: { quotes: Quote[] } }
    ).data.quotes;
    for (const quote of quotes) {
      expect(answer.body).toContain(quote.title);
      expect(answer.body).toContain(persian(quote.price_toman));
    }
    // Its validator is the page's own (a 304 for the same bytes: render-etag.test.ts).
    expect(answer.headers.etag).toMatch(/^"[^"]+"$/);
  });

  it('renders the widget that widget= names and transparent=1, as the page reads them', async () => {
    for (const [widget, tag] of [
      ['ticker', 'price-ticker'],
      ['CONVERTER', 'price-converter'],
      ['other', 'price-board'],
    ]) {
      const answer = await get(pair.relay.url, `/embed.html?widget=${widget}&symbols=usd`);
      expect(answer.body).toMatch(
        new RegExp(`<body><${tag}\\s[^>]*symbols="usd"[^>]*><template [^>]*shadowrootmode="open">`),
      );
    }
    // transparent=1 on the page's root before its script runs, as the script sets it.
    expect((await get(pair.relay.url, '/embed.html?symbols=usd&transparent=1')).body).toContain(
      '<html data-transparent lang="fa"',
    );
    expect((await get(pair.relay.url, '/embed.html?symbols=usd&transparent=0')).body).toContain('<html lang="fa"');
    for (const value of ['ticker', ' Converter ', 'x', ''])
      expect(embedTag(new URLSearchParams({ widget: value }))).toBe(WIDGET_TAGS[readWidget(`?widget=${value}`)]);
  });

  it('renders an invalid value with its default, naming it to the developer only, and the bare element when the render fails', async () => {
    const bad = await get(pair.relay.url, '/embed.html?symbols=usd&chart=bogus');
    expect([bad.status, bad.headers['x-price-board-invalid']]).toEqual([200, 'chart']);
    expect(bad.body).toContain('دلار آمریکا');
    expect(bad.body).not.toContain('قیمت‌ها فعلاً در دسترس نیست.');
    expect(bad.body).not.toContain('bogus');
    // Test-only seam, as render.test's: the ticker's own template throws for this render.
    const render = Object.getOwnPropertyDescriptor(PriceTicker.prototype, 'render')!;
    Object.defineProperty(PriceTicker.prototype, 'render', {
      ...render,
      value() {
        throw new Error('template broke');
      },
    });
    try {
      const failed = await get(pair.relay.url, '/embed.html?widget=ticker&symbols=gbp');
      expect([failed.status, failed.headers['cache-control']]).toEqual([200, 'no-store']);
      expect(failed.headers['x-price-board-render-error']).toMatch(/template broke/);
      expect(failed.body).toContain('<body><price-ticker symbols="gbp"></price-ticker></body>');
    } finally {
      Object.defineProperty(PriceTicker.prototype, 'render', render);
    }
  });
});

describe('INCLUDERS', () => {
  it('lifts the per-address limit for /render/ and the page from an includer’s address only', async () => {
    const limited = await startPair({ CLIENT_RPM: '20', INCLUDERS: '127.0.50.0/24' }, { distDir: dist });
    try {
      const statuses = async (from: string, path: string, n: number): Promise<number[]> => {
        const out: number[] = [];
        for (let i = 0; i < n; i++) out.push((await get(limited.relay.url, path, { from })).status);
        return out;
      };
      // Past CLIENT_RPM's window: the includer's fragments and pages are all served.
      expect(new Set(await statuses('127.0.50.7', '/render/price-board?symbols=usd', 40))).toEqual(new Set([200]));
      expect(new Set(await statuses('127.0.50.7', '/embed.html?symbols=usd', 10))).toEqual(new Set([200]));
      // Another address is one visitor: past its limit, a fragment is a 429 with no body, which a
      // site's server including it treats as failed (nginx SSI would put a body in the page).
      expect(await statuses('127.0.51.7', '/render/price-board?symbols=usd', 40)).toContain(429);
      const refused = await get(limited.relay.url, '/render/price-board?symbols=usd', { from: '127.0.51.7' });
      expect([refused.status, refused.body]).toEqual([429, '']);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      expect(refused.headers['x-price-board-error']).toMatch(/^rate_limited/);
      // The includer's API calls still count.
      expect(await statuses('127.0.50.7', '/v1/prices?symbols=usd', 40)).toContain(429);
    } finally {
      await limited.close();
    }
  });

  it('serves the page as built, not rendered, to an address past its limit (files are not visits)', async () => {
    const limited = await startPair({ CLIENT_RPM: '20' }, { distDir: dist });
    try {
      const from = '127.0.52.1';
      while ((await get(limited.relay.url, '/v1/prices?symbols=usd', { from })).status !== 429);
      const page = await get(limited.relay.url, '/embed.html?symbols=usd', { from });
      expect([page.status, page.body]).toEqual([200, PAGE]);
    } finally {
      await limited.close();
    }
  });

  it('is validated like METRICS_ALLOW, without *', () => {
    expect(readConfig({ INCLUDERS: '10.0.0.1, 2001:db8::/32, loopback' }).includers).toEqual([
      '10.0.0.1',
      '2001:db8::/32',
      'loopback',
    ]);
    expect(readConfig({}).includers).toEqual([]);
    expect(() => readConfig({ INCLUDERS: '10.0.0.0/33' })).toThrow(/INCLUDERS: "10.0.0.0\/33"/);
    expect(() => readConfig({ INCLUDERS: 'shop.example' })).toThrow(/INCLUDERS/);
    expect(() => readConfig({ INCLUDERS: '*' })).toThrow(/INCLUDERS: "\*"/);
  });
});
