/**
 * The converter's arithmetic, pure: an amount of a symbol ↔ toman (or rial), exact on decimal
 * strings. Dollar-priced symbols go through the `usd` quote. Every failure is a Persian message.
 */
import type { DisplayUnit, Quote } from '../shared/types';
import { DOLLAR_SYMBOLS } from '../shared/types';
import { decimalToString, isZero, parseDecimal, type Decimal } from '../format/decimal';
import { divideDecimal, multiplyDecimal, readAmount } from '../format/amount';

/** `to-money`: amount of the symbol → toman/rial; `from-money`: toman/rial → amount of the symbol. */
export type ConvertDirection = 'to-money' | 'from-money';

/** The symbol every dollar-priced symbol converts through. */
export const USD = 'usd';

export type Conversion =
  | { ok: true; value: string; via?: string }
  | { ok: false; reason: 'empty' | 'invalid' | 'waiting' | 'no-price'; message: string };

const fail = (reason: Exclude<Conversion, { ok: true }>['reason'], message: string): Conversion => ({ ok: false, reason, message });

/** Fraction digits of a division: grams and mesghals are weighed finer than coins and notes. */
export function quotientDigits(quote: Quote): number {
  return quote.unit === 'gram' || quote.unit === 'mesghal' ? 3 : 2;
}

const money = (quote: Quote, unit: DisplayUnit): Decimal => parseDecimal(unit === 'rial' ? quote.price : quote.price_toman);

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
  if (isZero(price)) return fail('no-price', 'قیمت این نماد در دسترس نیست.');
  const value =
    direction === 'to-money'
      ? multiplyDecimal(parseDecimal(amount), price)
      : divideDecimal(parseDecimal(amount), price, quotientDigits(quote));
  return { ok: true, value: decimalToString(value), ...(via === undefined ? {} : { via }) };
}
