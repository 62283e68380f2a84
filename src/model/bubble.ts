/**
 * The `bubble` column (حباب سکه, DESIGN §10): how far a coin's market price is above (or below)
 * the world price of the gold in it. Pure and exact: no float anywhere.
 */
import type { DisplayUnit, Quote } from '../shared/types';
import { divideRatio, multiplyRatio, roundRatio, subtractRatio, toRatio, type Ratio } from '../format/amount';
import { decimalToString, divideByTen, isZero, parseDecimal, type Decimal } from '../format/decimal';
import { formatDecimal, MONEY_NAME } from '../format/number';
import { formatPercent } from '../format/percent';
import { coinSpec, TROY_OUNCE_GRAMS, type CoinSpec } from './coins';
import { direction, type Direction } from './quote';

/** A coin's bubble and what it was computed from (for the cell's title). */
export interface CoinBubble {
  /** Signed percent, canonical, rounded half away from zero to 2 decimals: `"15.25"`, `"-3.1"`. */
  percent: string;
  /** The sign of `percent`, to colour by. */
  direction: Direction;
  spec: CoinSpec;
  /** The coin's market price, rial (`price`). */
  coinRial: string;
  /** `ons` in dollars per troy ounce. */
  ons: string;
  /** One dollar in rial (`usd`'s `price`). */
  usdRial: string;
  /** The gold in the coin at world price, rial, exact (not rounded). */
  intrinsicRial: Ratio;
}

const HUNDRED: Ratio = { num: 100n, den: 1n };

/**
 * The bubble of `coin`, or `undefined` (an empty cell) for a symbol that is not one of the coins
 * in `COINS`, when `ons` or `usd` is missing, or when a price is unreadable or zero.
 *
 * Everything is in rial so that the unit cancels: the coin's `price` (rial) against
 *   intrinsic = pure grams × ons [$/oz] × usd [rial/$] ÷ 31.1034768 [g/oz],
 * and bubble = (price ÷ intrinsic − 1) × 100 = 100·(price − intrinsic) ÷ intrinsic. Each decimal is
 * an exact fraction of BigInts (`toRatio`); products, the difference and the quotient of such
 * fractions are exact, so the only rounding is `roundRatio`'s at the end, which is exact.
 */
export function coinBubble(
  coin: Pick<Quote, 'symbol' | 'price'> | undefined,
  ons: Pick<Quote, 'price'> | undefined,
  usd: Pick<Quote, 'price'> | undefined,
): CoinBubble | undefined {
  const spec = coin && coinSpec(coin.symbol);
  if (!coin || !spec || !ons || !usd) return undefined;
  let price: Decimal;
  let ounce: Decimal;
  let dollar: Decimal;
  try {
    price = parseDecimal(coin.price);
    ounce = parseDecimal(ons.price);
    dollar = parseDecimal(usd.price);
  } catch {
    return undefined;
  }
  if ([price, ounce, dollar].some((d) => isZero(d) || d.negative)) return undefined;
  const gold = multiplyRatio(multiplyRatio(toRatio(parseDecimal(spec.pureGrams)), toRatio(ounce)), toRatio(dollar));
  const intrinsic = divideRatio(gold, toRatio(parseDecimal(TROY_OUNCE_GRAMS)));
  if (!intrinsic || intrinsic.num <= 0n) return undefined;
  const premium = divideRatio(multiplyRatio(HUNDRED, subtractRatio(toRatio(price), intrinsic)), intrinsic)!;
  const percent = decimalToString(roundRatio(premium, 2));
  return {
    percent,
    direction: direction({ change_pct: percent }),
    spec,
    coinRial: decimalToString(price),
    ons: decimalToString(ounce),
    usdRial: decimalToString(dollar),
    intrinsicRial: intrinsic,
  };
}

/** A rial amount in the board's unit, Persian: toman is rial ÷ 10, exactly. */
const money = (rial: string, unit: DisplayUnit): string =>
  formatDecimal(unit === 'rial' ? rial : decimalToString(divideByTen(parseDecimal(rial))));

/**
 * The bubble cell's title: how it was computed, in Persian with Persian digits, amounts in the
 * board's unit. For example (toman): «حباب ‎+۱۲٫۳۴٪ = قیمت سکه ÷ ارزش طلای آن − ۱؛ ارزش طلا =
 * ۷٫۳۲۲۴ گرم طلای خالص (۸٫۱۳۶ گرم با عیار ۹۰۰) × انس ۲٬۶۵۰٫۵ دلار × دلار ۱۰۴٬۵۵۰ تومان ÷
 * ۳۱٫۱۰۳۴۷۶۸ گرم در انس = ۶۵٬۱۲۳٬۴۵۶ تومان؛ قیمت سکه ۱۱۰٬۰۰۰٬۰۰۰ تومان».
 */
export function bubbleTitle(bubble: CoinBubble, unit: DisplayUnit): string {
  const { spec } = bubble;
  const unitName = MONEY_NAME[unit];
  const intrinsic = decimalToString(
    roundRatio(unit === 'rial' ? bubble.intrinsicRial : multiplyRatio(bubble.intrinsicRial, { num: 1n, den: 10n }), 0),
  );
  const perThousand = decimalToString(
    roundRatio(multiplyRatio(toRatio(parseDecimal(spec.fineness)), { num: 1000n, den: 1n }), 1),
  );
  return (
    `حباب ${formatPercent(bubble.percent)} = قیمت سکه ÷ ارزش طلای آن − ۱؛ ` +
    `ارزش طلا = ${formatDecimal(spec.pureGrams)} گرم طلای خالص (${formatDecimal(spec.grossGrams)} گرم با عیار ${formatDecimal(perThousand)}) ` +
    `× انس ${formatDecimal(bubble.ons)} دلار × دلار ${money(bubble.usdRial, unit)} ${unitName} ÷ ${formatDecimal(TROY_OUNCE_GRAMS)} گرم در انس ` +
    `= ${formatDecimal(intrinsic)} ${unitName}؛ قیمت سکه ${money(bubble.coinRial, unit)} ${unitName}`
  );
}
