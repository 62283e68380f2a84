// The symbol list of SERVICE-SPEC 2.3 with Persian titles, and the price level each one starts
// from. Prices are rials, except `ons` and `silver_ounce` (US dollars per ounce).
import { CURRENCIES } from './currencies';
import { fromUnits } from './decimal';
import type { Category, PriceUnit } from './types';

export interface SymbolDef {
  symbol: string;
  title: string;
  category: Category;
  unit: PriceUnit;
  /** Typical price: rials, or dollars for the dollar-priced symbols. */
  anchor: number;
  /** Units per US dollar, for currencies (their rial price follows the dollar's). */
  perUsd?: number;
  /** Traded often: changes on many source reads. The others change rarely. */
  active: boolean;
  /** Priced in US dollars (`ons`, `silver_ounce`). */
  dollar: boolean;
  /** Decimal places of the price string. */
  scale: number;
  /** Price granularity in units of 10^-scale. */
  step: number;
}

/** The free-market dollar in rials (105,000 toman) that the currency levels derive from. */
export const USD_RIAL = 1_050_000;

type Metal = [symbol: string, title: string, category: Category, unit: PriceUnit, anchor: number];

const METALS: Metal[] = [
  ['gold_18', 'طلای ۱۸ عیار', 'gold', 'gram', 100_000_000],
  ['gold_24', 'طلای ۲۴ عیار', 'gold', 'gram', 133_300_000],
  ['broken_gold_18', 'طلای دست‌دوم ۱۸ عیار', 'gold', 'gram', 99_000_000],
  ['broken_gold_21', 'طلای دست‌دوم ۲۱ عیار', 'gold', 'gram', 115_500_000],
  ['gold_melted', 'طلای آب‌شده', 'gold', 'mesghal', 433_200_000],
  ['coin_emami', 'سکه امامی', 'coin', 'count', 1_100_000_000],
  ['coin_bahar', 'سکه بهار آزادی', 'coin', 'count', 1_050_000_000],
  ['coin_half', 'نیم سکه', 'coin', 'count', 600_000_000],
  ['coin_quarter', 'ربع سکه', 'coin', 'count', 380_000_000],
  ['coin_gerami', 'سکه گرمی', 'coin', 'count', 170_000_000],
  ['silver_999', 'نقره ۹۹۹', 'silver', 'gram', 1_750_000],
  ['silver_925', 'نقره ۹۲۵', 'silver', 'gram', 1_620_000],
  ['broken_silver_925', 'نقره دست‌دوم ۹۲۵', 'silver', 'gram', 1_520_000],
  // silver_ounce's category is not shown in the spec: it is a global ounce price like ons.
  ['ons', 'انس طلا', 'global', 'usd_ounce', 4012.35],
  ['silver_ounce', 'انس نقره', 'global', 'usd_ounce', 50.12],
];

/** Two decimals for dollars and for currencies worth less than 1,000 rials; else whole rials. */
function precision(anchor: number, dollar: boolean): { scale: number; step: number } {
  if (dollar || anchor < 1_000) return { scale: 2, step: 1 };
  if (anchor < 10_000) return { scale: 0, step: 1 };
  if (anchor < 1_000_000) return { scale: 0, step: 10 };
  if (anchor < 100_000_000) return { scale: 0, step: 100 };
  return { scale: 0, step: 10_000 };
}

function def(base: Omit<SymbolDef, 'scale' | 'step'>): SymbolDef {
  return { ...base, ...precision(base.anchor, base.dollar) };
}

export const SYMBOLS: readonly SymbolDef[] = [
  ...METALS.map(([symbol, title, category, unit, anchor]) =>
    def({ symbol, title, category, unit, anchor, active: true, dollar: unit === 'usd_ounce' }),
  ),
  ...CURRENCIES.map((c) =>
    def({
      symbol: c.code,
      title: c.title,
      category: 'currency',
      unit: 'unit',
      anchor: USD_RIAL / c.perUsd,
      perUsd: c.perUsd,
      active: c.active,
      dollar: false,
    }),
  ),
];

export const SYMBOL_MAP: ReadonlyMap<string, SymbolDef> = new Map(SYMBOLS.map((d) => [d.symbol, d]));

/** A float rounded to the symbol's price granularity, as its price string. */
export function roundPrice(def: SymbolDef, value: number): string {
  const units = Math.round((value * 10 ** def.scale) / def.step) * def.step;
  if (!Number.isFinite(units)) return roundPrice(def, def.anchor);
  return fromUnits(Math.max(def.step, units), def.scale);
}
