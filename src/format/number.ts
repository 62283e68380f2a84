/**
 * Persian numbers for the board: exact formatting of the service's decimal strings (string work,
 * never a float), and Intl formatting for chart axes where floats are only drawn.
 *
 * The output matches what `Intl.NumberFormat('fa-IR')` produces: Persian digits, U+066C between
 * groups of three, U+066B before the fraction, and a signed number led by LRM (U+200E) so the sign
 * stays on the left of the digits inside right-to-left text, with U+2212 as the minus.
 */
import type { DisplayUnit, Quote } from '../shared/types';
import { DOLLAR_SYMBOLS } from '../shared/types';
import { decimalToString, divideByTen, isZero, parseDecimal, roundDecimal } from './decimal';

const PERSIAN_DIGITS = '۰۱۲۳۴۵۶۷۸۹';
const LRM = '\u200E';
const MINUS = '\u2212';
const GROUP = '\u066C';
const DECIMAL_SEPARATOR = '\u066B';

/** Options of {@link formatDecimal}. */
export interface DecimalFormatOptions {
  /** Pad the fraction with zeros to at least this many digits (default 0). */
  minFractionDigits?: number;
  /** Round (half away from zero, exactly) to at most this many digits (default: keep all). */
  maxFractionDigits?: number;
  /** `exceptZero` adds LRM + `+` to positive numbers (default `auto`: sign only when negative). */
  signDisplay?: 'auto' | 'exceptZero';
}

/** Replaces ASCII digits with Persian ones (U+06F0–U+06F9); everything else is kept. */
export function toPersianDigits(s: string): string {
  return s.replace(/[0-9]/g, (d) => PERSIAN_DIGITS[d.charCodeAt(0) - 48] ?? d);
}

/**
 * Formats a decimal string of any length exactly: `"123456.5"` → `"۱۲۳٬۴۵۶٫۵"`,
 * `"-1.5"` → `"‎−۱٫۵"`, `"-0"` → `"۰"`. Trailing fraction zeros beyond `minFractionDigits` are
 * dropped (as Intl does). Throws `PriceBoardError('bad_response')` on a non-decimal string.
 */
export function formatDecimal(value: string, options: DecimalFormatOptions = {}): string {
  const { maxFractionDigits, signDisplay = 'auto' } = options;
  let d = parseDecimal(value);
  if (maxFractionDigits !== undefined) d = roundDecimal(d, maxFractionDigits);
  const minFraction = Math.min(options.minFractionDigits ?? 0, maxFractionDigits ?? Infinity);
  const frac = d.frac.padEnd(minFraction, '0');
  const int = d.int.replace(/\B(?=(\d{3})+(?!\d))/g, GROUP);
  const digits = toPersianDigits(frac ? `${int}${DECIMAL_SEPARATOR}${frac}` : int);
  if (d.negative) return `${LRM}${MINUS}${digits}`;
  if (signDisplay === 'exceptZero' && !isZero(d)) return `${LRM}+${digits}`;
  return digits;
}

/** Exact division of a rial amount by ten: `"1234567"` → `"123456.7"`, `"5"` → `"0.5"`, `"-15"` → `"-1.5"`. */
export function rialToToman(rial: string): string {
  return decimalToString(divideByTen(parseDecimal(rial)));
}

function isDollar(quote: Quote): boolean {
  return DOLLAR_SYMBOLS.has(quote.symbol.toLowerCase());
}

/**
 * The text of a price/high/low cell. Toman: `price_toman` for the price, `high`/`low` divided by
 * ten; the fraction is shown only when it is not zero. Rial: the service's value as is. Dollar
 * symbols (`DOLLAR_SYMBOLS`) always show dollars with exactly two fraction digits, rounded half-up
 * in string arithmetic when more arrive.
 */
export function formatQuoteValue(quote: Quote, field: 'price' | 'high' | 'low', unit: DisplayUnit): string {
  if (isDollar(quote)) return formatDecimal(quote[field], { minFractionDigits: 2, maxFractionDigits: 2 });
  if (unit === 'rial') return formatDecimal(quote[field]);
  return formatDecimal(field === 'price' ? quote.price_toman : rialToToman(quote[field]));
}

/** The Persian names of the display units. */
export const MONEY_NAME: Readonly<Record<DisplayUnit, string>> = { toman: 'تومان', rial: 'ریال' };

/** The Persian name of the unit a cell is shown in: `تومان`, `ریال` or `دلار`. */
export function unitLabel(quote: Quote, unit: DisplayUnit): string {
  if (isDollar(quote)) return 'دلار';
  return MONEY_NAME[unit];
}
