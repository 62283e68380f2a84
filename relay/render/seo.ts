/**
 * `seo=1` (DESIGN.md §13): the shown quotes as schema.org JSON-LD in the fragment's light DOM, for
 * search engines and link previews. Built per answer from the quotes (a few hundred bytes), never
 * part of the cached render.
 *
 * The types: a currency's price is the rate of one unit of it in rials, which schema.org names
 * `ExchangeRateSpecification` (`currency`: its ISO 4217 code, `currentExchangeRate`: the rate). A
 * gram of gold, a mesghal or a coin is an item traded at a price: an `Offer` named by its title,
 * its `priceSpecification` per unit (`UnitPriceSpecification` with `unitCode`/`unitText`). Each
 * price comes twice, as the page shows it: rials (`IRR`) and tomans (`IRT`, the code Iranian shops
 * and payment gateways use for the toman, which has no ISO code); the two dollar-priced ounces only
 * in `USD`, as the board shows them. Prices are the service's exact strings, never a float.
 */
import type { Quote } from '../from-src';

const SCHEMA = 'https://schema.org';

/** UN/CEFACT codes of the units that have one, and the Persian word the page uses for each. */
const UNITS: Readonly<Record<string, { code?: string; text: string }>> = {
  gram: { code: 'GRM', text: 'گرم' },
  mesghal: { text: 'مثقال' },
  count: { code: 'C62', text: 'عدد' },
  usd_ounce: { code: 'APZ', text: 'اونس' },
};

/** The prices of `quote` as `UnitPriceSpecification`s: rial and toman, or dollars for an ounce. */
function prices(quote: Quote): object[] {
  const unit = UNITS[quote.unit];
  const per = unit ? { ...(unit.code ? { unitCode: unit.code } : {}), unitText: unit.text } : {};
  const spec = (price: string, priceCurrency: string) => ({
    '@type': 'UnitPriceSpecification',
    price,
    priceCurrency,
    validFrom: quote.updated_at,
    ...per,
  });
  // The service's unit says it: an ounce's price is in dollars (SERVICE-SPEC 2.2).
  if (quote.unit === 'usd_ounce') return [spec(quote.price, 'USD')];
  return [spec(quote.price, 'IRR'), spec(quote.price_toman, 'IRT')];
}

/** One quote as schema.org: an exchange rate for a currency, an offer for anything else. */
function thing(quote: Quote): object {
  if (quote.category === 'currency')
    return {
      '@type': 'ExchangeRateSpecification',
      name: quote.title,
      currency: quote.symbol.toUpperCase(),
      currentExchangeRate: prices(quote),
    };
  return {
    '@type': 'Offer',
    name: quote.title,
    category: quote.category,
    validFrom: quote.updated_at,
    priceSpecification: prices(quote),
  };
}

/**
 * The `<script type="application/ld+json">` of `quotes` (empty when there are none): data, never
 * executed, with no `<` left in it that could end the script or open a comment (a title holding
 * `</script>` stays inside).
 */
export function jsonLd(quotes: readonly Quote[]): string {
  if (quotes.length === 0) return '';
  const json = JSON.stringify({ '@context': SCHEMA, '@graph': quotes.map(thing) });
  return `<script type="application/ld+json">${json.replace(/</g, '\\u003c')}</script>`;
}
