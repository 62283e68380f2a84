// `seo=1` on the relay's fragments over real HTTP (DESIGN.md §13): the shown quotes as schema.org
// JSON-LD in light DOM, each price the service's exact string in rials and tomans (dollars for an
// ounce), named by its Persian title, at the quote's time; nothing without `seo=1`, and a title
// holding `</script>` stays inside the data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Quote } from '../../relay/from-src';
import { get, pushQuote, startPair, until, type Pair } from './helpers';

let pair: Pair;
let base = '';
beforeAll(async () => void (base = (pair = await startPair({ CLIENT_RPM: '1000000' })).relay.url));
afterAll(() => pair.close());

interface Price {
  '@type': string;
  price: string;
  priceCurrency: string;
  validFrom: string;
  unitText?: string;
}
interface Thing {
  '@type': string;
  name: string;
  currency?: string;
  currentExchangeRate?: Price[];
  priceSpecification?: Price[];
}

/** Every JSON-LD block of a fragment, parsed. */
function jsonLdOf(body: string): Array<{ '@context': string; '@graph': Thing[] }> {
  return [...body.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1]!) as { '@context': string; '@graph': Thing[] },
  );
}

const pricesOf = async (symbols: string): Promise<Quote[]> =>
  (JSON.parse((await get(base, `/v1/prices?symbols=${symbols}`)).body) as { data: { quotes: Quote[] } }).data.quotes;

describe('seo=1', () => {
  it('adds each shown quote as schema.org JSON-LD in light DOM, its exact prices in IRR and toman', async () => {
    const symbols = 'usd,eur,gold_18,coin_emami,gold_melted,ons';
    const answer = await get(base, `/render/price-board?symbols=${symbols}&seo=1`);
    expect(answer.status).toBe(200);
    const blocks = jsonLdOf(answer.body);
    expect(blocks).toHaveLength(1);
    // In light DOM, after the element's shadow root, inside the element.
    const at = answer.body.indexOf('<script type="application/ld+json">');
    expect(at).toBeGreaterThan(answer.body.indexOf('</template>'));
    expect(at).toBeLessThan(answer.body.lastIndexOf('</price-board>'));
    const [ld] = blocks;
    expect(ld!['@context']).toBe('https://schema.org');
    const quotes = await pricesOf(symbols);
    expect(ld!['@graph'].map((thing) => thing.name)).toEqual(quotes.map((quote) => quote.title));
    for (const [i, quote] of quotes.entries()) {
      const thing = ld!['@graph'][i]!;
      const specs = thing.currentExchangeRate ?? thing.priceSpecification ?? [];
      if (quote.category === 'currency')
        expect([thing['@type'], thing.currency]).toEqual(['ExchangeRateSpecification', quote.symbol.toUpperCase()]);
      else expect(thing['@type']).toBe('Offer');
      const expected =
        quote.unit === 'usd_ounce'
          ? [[quote.price, 'USD']]
          : [
              [quote.price, 'IRR'],
              [quote.price_toman, 'IRT'],
            ];
      // The service's strings as they are: never through a float.
      expect(specs.map((spec) => [spec.price, spec.priceCurrency])).toEqual(expected);
      for (const spec of specs) {
        expect(spec['@type']).toBe('UnitPriceSpecification');
        expect(spec.validFrom).toBe(quote.updated_at);
      }
    }
    const units = ld!['@graph'].map((thing) => (thing.currentExchangeRate ?? thing.priceSpecification)![0]!.unitText);
    expect(units).toEqual([undefined, undefined, 'گرم', 'عدد', 'مثقال', 'اونس']);
  });

  it('is absent without seo=1, costs no render of its own, and the ticker and converter carry it too', async () => {
    const renders = async (): Promise<string | undefined> =>
      (await get(base, '/metrics')).body
        .split('\n')
        .find((l) => l.startsWith('relay_renders_total{widget="price-board"}'));
    expect(jsonLdOf((await get(base, '/render/price-board?symbols=usd,gbp')).body)).toEqual([]);
    const before = await renders();
    expect(jsonLdOf((await get(base, '/render/price-board?symbols=usd,gbp&seo=1')).body)).toHaveLength(1);
    // The same render, its JSON-LD made per answer from the quotes.
    expect(await renders()).toBe(before);
    expect(jsonLdOf((await get(base, '/render/price-board?symbols=usd&seo=0')).body)).toEqual([]);
    for (const widget of ['price-ticker', 'price-converter']) {
      const [ld] = jsonLdOf((await get(base, `/render/${widget}?symbols=usd&seo=1`)).body);
      expect(ld!['@graph'].map((thing) => thing.currency)).toEqual(['USD']);
    }
  });

  it('keeps a title holding </script> inside the data', async () => {
    const [usd] = await pricesOf('usd');
    const title = '</script><script>alert(1)</script><!--دلار';
    await pushQuote(pair.sandbox.url, '9100', { ...usd!, title });
    const body = await until(async () => {
      const answer = await get(base, '/render/price-board?symbols=usd&seo=1');
      return answer.body.includes('alert(1)') ? answer.body : undefined;
    }, 10_000);
    // The only scripts are the snapshot, the JSON-LD and the module script: nothing broke out.
    const scripts = [...body.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts).toEqual([
      '<script type="application/json">',
      '<script type="application/ld+json">',
      '<script type="module" src="/assets/takeover.js?price-board">',
    ]);
    expect(body).not.toContain('<!--دلار');
    expect(jsonLdOf(body)[0]!['@graph'][0]!.name).toBe(title);
  });
});
