import { describe, expect, it } from 'vitest';
import {
  call,
  control,
  getJson,
  scaled,
  SPEC_CURRENCIES,
  SPEC_OTHERS,
  type ErrorBody,
  type PricesBody,
  type SymbolsBody,
  useSandbox,
} from './helpers';

const s = useSandbox({ market: 'closed' });

const ALL = [...SPEC_OTHERS.map(([id]) => id), ...SPEC_CURRENCIES];
const DECIMAL = /^\d+(\.\d+)?$/;

describe('GET /v1/prices', () => {
  it('answers the envelope with one quote per symbol in the requested order', async () => {
    const body = await getJson<PricesBody>(s.url, '/v1/prices?symbols=ons,usd,gold_18,eur');
    expect(Object.keys(body)).toEqual(['data']);
    expect(body.data.delay_seconds).toBe(0);
    expect(body.data.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(body.data.quotes.map((q) => q.symbol)).toEqual(['ons', 'usd', 'gold_18', 'eur']);
    expect(Object.keys(body.data.quotes[0]!).sort()).toEqual(
      ['symbol', 'title', 'category', 'unit', 'price', 'price_toman', 'change_pct', 'high', 'low', 'updated_at'].sort(),
    );
  });

  it('serves every numeric field of every symbol as an exact string, with price_toman = price / 10', async () => {
    const body = await getJson<PricesBody>(s.url, `/v1/prices?symbols=${ALL.join(',')}`);
    expect(body.data.quotes).toHaveLength(ALL.length);
    const usd = body.data.quotes.find((q) => q.symbol === 'usd')!;
    for (const q of body.data.quotes) {
      for (const field of ['price', 'price_toman', 'high', 'low'] as const)
        expect(q[field], `${q.symbol}.${field}`).toMatch(DECIMAL);
      expect(q.change_pct).toMatch(/^-?\d+\.\d\d$/);
      expect(q.change_pct).not.toBe('-0.00');
      expect(q.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+03:30$/);
      expect(Number(q.low)).toBeLessThanOrEqual(Number(q.price));
      expect(Number(q.high)).toBeGreaterThanOrEqual(Number(q.price));
      if (q.unit === 'usd_ounce') {
        // Dollar-priced: the ounce in tomans at the dollar rate, rounded to a whole toman.
        expect(q.price).toMatch(/^\d+\.\d\d$/);
        const exact = (scaled(q.price, 2) * scaled(usd.price, 0)) / 10n;
        expect(BigInt(q.price_toman) - exact / 100n).toBeLessThanOrEqual(1n);
      } else {
        expect(scaled(q.price_toman, 8), q.symbol).toBe(scaled(q.price, 7));
      }
    }
  });

  it('quotes plausible free-market levels', async () => {
    const body = await getJson<PricesBody>(
      s.url,
      '/v1/prices?symbols=usd,eur,gold_18,coin_emami,ons,silver_ounce,iqd,jod',
    );
    const price = (id: string) => Number(body.data.quotes.find((q) => q.symbol === id)!.price);
    expect(price('usd')).toBeGreaterThan(950_000);
    expect(price('usd')).toBeLessThan(1_150_000);
    expect(price('eur')).toBeGreaterThan(price('usd'));
    expect(price('gold_18') / 100_000_000).toBeCloseTo(1, 0);
    expect(price('coin_emami') / 1_100_000_000).toBeCloseTo(1, 0);
    expect(price('ons')).toBeGreaterThan(3500);
    expect(price('ons')).toBeLessThan(4500);
    expect(price('silver_ounce')).toBeGreaterThan(40);
    expect(price('silver_ounce')).toBeLessThan(60);
    // Currencies follow the dollar's cross rate (rare ones re-derive from it when they change).
    expect(price('iqd') / (1_050_000 / 1310)).toBeCloseTo(1, 1);
    expect(price('jod') / (price('usd') / 0.709)).toBeCloseTo(1, 1);
  });

  it('keeps a set price exact whatever its length, and price_toman with it', async () => {
    await control(s.url, 'market', {
      set: [
        { symbol: 'usd', price: '123456789012345678901234567895' },
        { symbol: 'eur', price: '1210005' },
        { symbol: 'vnd', price: '40.07' },
      ],
    });
    const body = await getJson<PricesBody>(s.url, '/v1/prices?symbols=usd,eur,vnd');
    const [usd, eur, vnd] = body.data.quotes;
    expect(usd!.price).toBe('123456789012345678901234567895');
    expect(usd!.price_toman).toBe('12345678901234567890123456789.5');
    expect(usd!.high).toBe('123456789012345678901234567895');
    expect(eur!.price_toman).toBe('121000.5');
    expect(vnd!.price_toman).toBe('4.007');
    await control(s.url, 'reset');
  });

  it('drops duplicate ids, keeping the first position', async () => {
    const body = await getJson<PricesBody>(s.url, '/v1/prices?symbols=eur,usd,eur');
    expect(body.data.quotes.map((q) => q.symbol)).toEqual(['eur', 'usd']);
  });

  it.each([
    ['missing', '/v1/prices'],
    ['empty', '/v1/prices?symbols='],
    ['with spaces', '/v1/prices?symbols=usd,%20eur'],
    ['upper case', '/v1/prices?symbols=USD'],
    ['with an empty item', '/v1/prices?symbols=usd,,eur'],
  ])('answers 400 bad_request for symbols %s', async (_name, path) => {
    const res = await call(s.url, path, { key: 'enterprise-key' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await res.json()) as ErrorBody).error.code).toBe('bad_request');
  });

  it('answers 404 unknown_symbol listing only the unknown ids', async () => {
    const res = await call(s.url, '/v1/prices?symbols=usd,xyz,gold_99', { key: 'enterprise-key' });
    expect(res.status).toBe(404);
    const body = (await res.json()) as ErrorBody;
    expect(body.error.code).toBe('unknown_symbol');
    expect(body.error.message).toBeTruthy();
    expect(body.error.symbols).toEqual(['xyz', 'gold_99']);
  });
});

describe('GET /v1/symbols', () => {
  it('lists every symbol of the spec with a Persian title, its category and unit', async () => {
    const body = await getJson<SymbolsBody>(s.url, '/v1/symbols');
    const byId = new Map(body.data.symbols.map((x) => [x.symbol, x]));
    expect(body.data.symbols).toHaveLength(SPEC_OTHERS.length + SPEC_CURRENCIES.length);
    for (const [id, category, unit] of [
      ...SPEC_OTHERS,
      ...SPEC_CURRENCIES.map((c) => [c, 'currency', 'unit'] as const),
    ]) {
      const entry = byId.get(id);
      expect(entry, id).toBeDefined();
      expect(entry!.title, id).toMatch(/[\u0600-\u06FF]/);
      expect(entry!.title, id).not.toMatch(/[A-Za-z]/);
      expect([entry!.category, entry!.unit], id).toEqual([category, unit]);
    }
    expect(new Set(body.data.symbols.map((x) => x.title)).size).toBe(body.data.symbols.length);
  });

  it('uses the usual Persian names', async () => {
    const body = await getJson<SymbolsBody>(s.url, '/v1/symbols');
    const title = (id: string) => body.data.symbols.find((x) => x.symbol === id)?.title;
    expect(title('usd')).toBe('دلار آمریکا');
    expect(title('eur')).toBe('یورو');
    expect(title('aed')).toBe('درهم امارات');
    expect(title('gbp')).toBe('پوند انگلیس');
    expect(title('try')).toBe('لیر ترکیه');
    expect(title('jpy')).toBe('ین ژاپن');
    expect(title('afn')).toBe('افغانی افغانستان');
    expect(title('gold_18')).toBe('طلای ۱۸ عیار');
    expect(title('coin_emami')).toBe('سکه امامی');
    expect(title('coin_bahar')).toBe('سکه بهار آزادی');
    expect(title('ons')).toBe('انس طلا');
    expect(title('silver_ounce')).toBe('انس نقره');
    expect(title('silver_999')).toBe('نقره ۹۹۹');
  });
});
