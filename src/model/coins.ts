/**
 * The gold in each Iranian coin the service quotes: what the bubble (حباب) column compares a
 * coin's market price with. Figures are exact decimal strings; docs/coins.md has the same table
 * with its sources and the disagreements between them.
 */

/** One coin's standard. `pureGrams` is exactly `grossGrams × fineness` (a unit test checks it). */
export interface CoinSpec {
  /** Gross weight of one coin in grams. */
  grossGrams: string;
  /** Gold per thousand parts of alloy, as a fraction: `"0.9"` is 900/1000 (21.6 karat). */
  fineness: string;
  /** Pure gold in one coin, in grams. */
  pureGrams: string;
}

/** Grams in one troy ounce, exactly (the 1959 international yard and pound agreement). */
export const TROY_OUNCE_GRAMS = '31.1034768';

/**
 * Sources (all read 2026-11-26):
 * [A] Asghar Balsini, spokesman of the Iran Center for Exchange of Currency and Gold, on the Central
 *     Bank's coins sold at its auction (IRNA / Mehr, reprinted by the Tehran gold and jewellery
 *     union, estjt.ir/2024/04/28/…; ebinews.com/338831): full Bahar Azadi 8.136 g, half 4.068 g,
 *     quarter 2.034 g, all 900/1000 "equal to 21.6 [karat]".
 * [B] Mohammad Ghods-Elahi, Central Bank of Iran (khabarkhodro.com/fa/news/70574, 1387-11-23):
 *     a coin "equal to one Bahar" weighs 8.136 g of 900/1000 gold (2½ Bahar 20.34 g, 5 Bahar 40.68 g).
 * [C] The Pahlavi coin law of 1930, whose standard Bahar Azadi kept (en.wikipedia.org/wiki/Pahlavi_gold_coins):
 *     7.322382 g of pure gold at 900/1000, i.e. 8.13598 g gross; rounded to 8.136 g in [A], [B].
 * [D] zar.ir (news.zar.ir/tag/show/1215) on the Central Bank's gram coin (سکه گرمی, from 2010):
 *     1.01 g at 900/1000, 13.3 mm; Wikipedia's Bahar Azadi article says only "about 1 gram".
 */
export const COINS: Readonly<Record<string, CoinSpec>> = {
  // Emami (new design, since 1370): the same standard as the old design [A] [B] [C].
  coin_emami: { grossGrams: '8.136', fineness: '0.9', pureGrams: '7.3224' },
  // Bahar Azadi (old design) [A] [B] [C].
  coin_bahar: { grossGrams: '8.136', fineness: '0.9', pureGrams: '7.3224' },
  // Half [A]; exactly half of the full coin.
  coin_half: { grossGrams: '4.068', fineness: '0.9', pureGrams: '3.6612' },
  // Quarter [A]; exactly a quarter of the full coin.
  coin_quarter: { grossGrams: '2.034', fineness: '0.9', pureGrams: '1.8306' },
  // Gram coin [D]: 1.01 g is the figure given; other sources round it to "1 gram".
  coin_gerami: { grossGrams: '1.01', fineness: '0.9', pureGrams: '0.909' },
};

/** The standard of a coin symbol, or `undefined` for any other symbol. */
export function coinSpec(symbol: string): CoinSpec | undefined {
  const key = symbol.toLowerCase();
  return Object.hasOwn(COINS, key) ? COINS[key] : undefined;
}
