/**
 * The converter's arithmetic, pure: an amount of a symbol ↔ toman (or rial), exact on decimal
 * strings. Dollar-priced symbols go through the `usd` quote. Every failure is a Persian message.
 */
import type { DisplayUnit, Quote } from '../shared/types';
import { DOLLAR_SYMBOLS } from '../shared/types';
import { decimalToString, isZero, parseDecimal, roundDecimal, type Decimal } from '../format/decimal';
import { divideDecimal, multiplyDecimal, readAmount } from '../format/amount';

/** `to-money`: amount of the symbol → toman/rial; `from-money`: toman/rial → amount of the symbol. */
export type ConvertDirection = 'to-money' | 'from-money';

/** The symbol every dollar-priced symbol converts through. */
export const USD = 'usd';

export type Conversion =
  | { ok: true; value: string; via?: string }
  | { ok: false; reason: 'empty' | 'invalid' | 'waiting' | 'no-price'; message: string };

const fail = (reason: Exclude<Conversion, { ok: true }>['reason'], message: string): Conversion => ({
  ok: false,
  reason,
  message,
});

/** Fraction digits of a division: grams and mesghals are weighed finer than coins and notes. */
export function quotientDigits(quote: Quote): number {
  return quote.unit === 'gram' || quote.unit === 'mesghal' ? 3 : 2;
}

/** Significant digits kept of a quotient below one, so that a small amount never shows as 0. */
export const SMALL_SIGNIFICANT = 2;
/** Fraction digits looked at for a quotient's first significant digit (beyond: it is 0). */
const MAX_FRACTION = 30;

/**
 * `a / b`, rounded half-up, exactly: to `digits` fraction digits (DESIGN.md §8), or, when that
 * rounds a quotient that is not zero to 0, to {@link SMALL_SIGNIFICANT} significant digits
 * (1,000,000 toman of a 421,000,000-toman ounce is 0.0024, not 0.00; 0.0549 stays 0.05).
 */
export function quotient(a: Decimal, b: Decimal, digits: number): Decimal {
  const rounded = divideDecimal(a, b, digits);
  if (!isZero(rounded) || isZero(a)) return rounded;
  const fine = divideDecimal(a, b, MAX_FRACTION);
  const first = fine.frac.search(/[1-9]/);
  if (first < 0) return rounded;
  return divideDecimal(a, b, Math.max(digits, first + SMALL_SIGNIFICANT));
}

/**
 * The name of one unit of the symbol, said before its title: `گرم` (grams), `مثقال`, `عدد`
 * (coins); none for currencies and ounces, whose title names the unit (دلار آمریکا، انس طلا).
 */
export function quantityName(quote: Quote | undefined): string {
  switch (quote?.unit) {
    case 'gram':
      return 'گرم';
    case 'mesghal':
      return 'مثقال';
    case 'count':
      return 'عدد';
    default:
      return '';
  }
}

const money = (quote: Quote, unit: DisplayUnit): Decimal =>
  parseDecimal(unit === 'rial' ? quote.price : quote.price_toman);

/**
 * Converts `amountText` (as typed: Persian, Arabic or Latin digits) with the latest quotes.
 * `value` is a canonical decimal string; `via` the toman/rial price of one dollar used for a
 * dollar-priced symbol.
 */
export function convert(
  amountText: string,
  direction: ConvertDirection,
  quote: Quote | undefined,
  usd: Quote | undefined,
  unit: DisplayUnit,
): Conversion {
  if (amountText.trim() === '') return fail('empty', 'مقداری وارد کنید.');
  const amount = readAmount(amountText);
  if (amount === undefined) return fail('invalid', 'عدد نامعتبر است؛ فقط رقم و ممیز وارد کنید.');
  const dollar = quote !== undefined && DOLLAR_SYMBOLS.has(quote.symbol);
  if (!quote || (dollar && !usd)) return fail('waiting', 'در انتظار قیمت…');
  let price: Decimal;
  let via: string | undefined;
  try {
    if (dollar) {
      const rate = money(usd!, unit);
      via = decimalToString(rate);
      price = multiplyDecimal(parseDecimal(quote.price), rate);
    } else price = money(quote, unit);
  } catch {
    return fail('no-price', 'قیمت این نماد در دسترس نیست.');
  }
  // Zero, or below zero (a price no service means): no price to convert with.
  if (isZero(price) || price.negative) return fail('no-price', 'قیمت این نماد در دسترس نیست.');
  // Money comes in whole toman or rial (half-up); an amount of the symbol as finely as it is weighed.
  const value =
    direction === 'to-money'
      ? roundDecimal(multiplyDecimal(parseDecimal(amount), price), 0)
      : quotient(parseDecimal(amount), price, quotientDigits(quote));
  return { ok: true, value: decimalToString(value), ...(via === undefined ? {} : { via }) };
}
