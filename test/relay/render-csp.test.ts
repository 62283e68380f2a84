// The fragments under a strict Content-Security-Policy (DESIGN.md §13), over real HTTP: no
// `style=""` attribute, no inline script that executes (the JSON scripts are data), and the sha256
// of every `<style>` block a fragment can carry published at GET /render/csp, for all three widgets,
// both themes, with and without the board's extras, invalid values and `seo=1`.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, startPair, type Pair } from './helpers';

let pair: Pair;
beforeAll(async () => {
  pair = await startPair({ CLIENT_RPM: '1000000' });
});
afterAll(() => pair.close());

interface Published {
  'style-src': string;
  widgets: Record<string, string[]>;
}

/** The queries of each widget: themes, units, densities, extras (chart, spark, link), invalid values, seo. */
const QUERIES: Record<string, string[]> = {
  'price-board': [
    'symbols=usd,eur,gold_18',
    'symbols=usd&theme=dark&chart=none',
    'symbols=usd,ons&theme=light&chart=line&days=7&density=compact&columns=price,change',
    'symbols=usd&link=https://example.com/{symbol}&unit=rial&seo=1',
    'symbols=usd&chart=bogus',
    'symbols=nosuchsymbol',
  ],
  'price-ticker': ['symbols=usd,eur', 'symbols=usd&theme=dark&speed=10&seo=1', 'symbols=usd&theme=bogus'],
  'price-converter': ['symbols=usd,gold_18', 'symbols=ons&theme=dark&amount=2&reverse', 'symbols=usd&theme=light'],
};

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('fragments under a strict CSP', () => {
  it('publish the sha256 of every style block a fragment carries, by widget and as one style-src list', async () => {
    const answer = await get(pair.relay.url, '/render/csp');
    expect([answer.status, answer.headers['content-type']]).toEqual([200, 'application/json; charset=utf-8']);
    const published = JSON.parse(answer.body) as Published;
    expect(Object.keys(published.widgets).sort()).toEqual(Object.keys(QUERIES).sort());
    const styleSrc = published['style-src'].split(' ');
    for (const [widget, queries] of Object.entries(QUERIES)) {
      expect(published.widgets[widget]!.length).toBeGreaterThan(0);
      for (const theme of ['', '&theme=dark', '&theme=light'])
        for (const query of queries) {
          const body = (await get(pair.relay.url, `/render/${widget}?${query}${theme}`)).body;
          const blocks = [...body.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => sha256(m[1]!));
          expect(blocks.length, `${widget}?${query}${theme}`).toBeGreaterThan(0);
          for (const hash of blocks) {
            expect(published.widgets[widget], `${widget}?${query}${theme}`).toContain(hash);
            expect(styleSrc).toContain(hash);
          }
        }
    }
  });

  it('carry no style attribute and no inline script that executes', async () => {
    for (const [widget, queries] of Object.entries(QUERIES))
      for (const query of queries) {
        const body = (await get(pair.relay.url, `/render/${widget}?${query}`)).body;
        expect(body, `${widget}?${query}`).not.toMatch(/\sstyle\s*=/i);
        expect(body).not.toMatch(/\son[a-z]+\s*=/i);
        // Data scripts, and the module script by its address (allowed by script-src, no inline code).
        for (const [, attributes, text] of body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
          if (/type="application\/(ld\+)?json"/.test(attributes!)) continue;
          expect(attributes).toMatch(/^ type="module" src="[^"]+"$/);
          expect(text).toBe('');
        }
      }
  });
});
