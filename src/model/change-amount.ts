/**
 * The `change-amount` column (DESIGN §10): how much the price moved, in the row's unit, derived
 * exactly from `price` and `change_pct`. Pure; no float anywhere.
 */
import type { DisplayUnit, Quote } from '../shared/types';
import { DOLLAR_SYMBOLS } from '../shared/types';
import { roundRatio, toRatio } from '../format/amount';
import { decimalToString, parseDecimal, type Decimal } from '../format/decimal';
import { direction, type Direction } from './quote';

/** The unit a change amount is in: the board's unit, or dollars for the dollar-priced symbols. */
export type ChangeUnit = DisplayUnit | 'dollar';

export type ChangeAmount =
  | {
      ok: true;
      /** Signed canonical decimal string: `"-1234"`, `"0"`, `"12.35"`. */
      value: string;
      /** The sign of `value` (what is shown), to colour by: a change that rounds to zero is flat. */
      direction: Direction;
      unit: ChangeUnit;
    }
  | {
      ok: false;
      /** `invalid`: a price or percent that is not a decimal; `no-previous`: pct ≤ −100. */
      reason: 'invalid' | 'no-previous';
      /** Persian, for people. */
      message: string;
    };

/**
 * The change of `quote` in `unit` (toman from `price_toman`, rial from `price`; `ons` and
 * `silver_ounce` always in dollars from `price`), rounded to a whole toman or rial, or to cents.
 *
 * With p = price and c = change_pct, the previous price is p ÷ (1 + c/100), so
 *   change = p − p·100/(100 + c) = p·c / (100 + c).
 * p = P/10^a and c = C/10^b are exact fractions of integers (`toRatio`), so the change is the one
 * fraction P·C / (10^a·(100·10^b + C)) of two BigInts, and `roundRatio` rounds it half away from
 * zero with an integer comparison: the result is the exactly rounded value, for any digit count.
 * Ties: +2.5 → 3 and −2.5 → −3 (the magnitude is rounded, as everywhere in format/).
 *
 * c = −100 would divide by zero, and c < −100 would mean a negative previous price: both are
 * `no-previous`, not a number.
 */
export function changeAmount(
  quote: Pick<Quote, 'symbol' | 'price' | 'price_toman' | 'change_pct'>,
  unit: DisplayUnit,
): ChangeAmount {
  const dollar = DOLLAR_SYMBOLS.has(quote.symbol.toLowerCase());
  let price: Decimal;
  let pct: Decimal;
  try {
    price = parseDecimal(dollar || unit === 'rial' ? quote.price : quote.price_toman);
    pct = parseDecimal(quote.change_pct);
  } catch {
    return { ok: false, reason: 'invalid', message: 'قیمت یا درصد تغییر نامعتبر است.' };
  }
  const p = toRatio(price);
  const c = toRatio(pct);
  // 100 + c = (100·den + num) / den; the den cancels against c's own.
  const base = 100n * c.den + c.num;
  if (base <= 0n) return { ok: false, reason: 'no-previous', message: 'قیمت قبلی از درصد تغییر به دست نمی‌آید.' };
  const value = decimalToString(roundRatio({ num: p.num * c.num, den: p.den * base }, dollar ? 2 : 0));
  return {
    ok: true,
    value,
    direction: direction({ change_pct: value }),
    unit: dollar ? 'dollar' : unit,
  };
}
