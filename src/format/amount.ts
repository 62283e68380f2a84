/**
 * What only the converter needs (`converter/convert.ts`): amounts as people type them, and exact
 * products and quotients of decimals. A module of its own so that it stays out of the board's
 * initial module (vite.config.ts): the board only formats.
 */
import { canonical, decimalToString, isZero, parseDecimal, type Decimal } from './decimal';

/** Persian (U+06F0…) and Arabic-Indic (U+0660…) digits to ASCII; everything else is kept. */
export function toLatinDigits(s: string): string {
  return s.replace(/[\u06F0-\u06F9\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) & 0xf));
}

/**
 * What a person typed as an amount, as a canonical decimal string, or `undefined` when it is not
 * a non-negative number: Persian, Arabic and Latin digits; `.` or `٫` before the fraction; `,`,
 * `٬`, spaces and direction marks between digits ignored (`"۱٬۲۳۴٫۵"` → `"1234.5"`).
 */
export function readAmount(text: string): string | undefined {
  const s = toLatinDigits(text)
    .replace(/[\s\u200E\u200F\u200C,\u066C]/g, '')
    .replace('\u066B', '.');
  if (!/^\+?(\d+\.?\d*|\.\d+)$/.test(s)) return undefined;
  const [int = '', frac = ''] = s.replace('+', '').split('.');
  return decimalToString(parseDecimal(`${int || '0'}.${frac || '0'}`));
}

/*
 * Products and quotients: a Decimal is an integer of digits scaled by 10^-n, so BigInt arithmetic
 * on those integers is exact for any digit count, with no float anywhere.
 */

function toScaled(d: Decimal): { n: bigint; scale: number } {
  const n = BigInt(d.int + d.frac);
  return { n: d.negative ? -n : n, scale: d.frac.length };
}

function fromScaled(n: bigint, scale: number): Decimal {
  const digits = (n < 0n ? -n : n).toString().padStart(scale + 1, '0');
  const split = digits.length - scale;
  return canonical(n < 0n, digits.slice(0, split), digits.slice(split));
}

/** The exact product: `1.5 × 12345678901234567890 = 18518518351851851835`. */
export function multiplyDecimal(a: Decimal, b: Decimal): Decimal {
  const x = toScaled(a);
  const y = toScaled(b);
  return fromScaled(x.n * y.n, x.scale + y.scale);
}

/**
 * The quotient rounded exactly to `digits` fraction digits, half away from zero (as
 * `roundDecimal`). Throws `RangeError` when `b` is zero.
 */
export function divideDecimal(a: Decimal, b: Decimal, digits: number): Decimal {
  if (isZero(b)) throw new RangeError('Division by zero');
  const x = toScaled(a);
  const y = toScaled(b);
  // a / b = (x.n · 10^y.scale) / (y.n · 10^x.scale); scaled by 10^digits and doubled so that
  // adding the divisor once rounds half up on the magnitude.
  const num = (x.n < 0n ? -x.n : x.n) * 10n ** BigInt(y.scale + digits) * 2n;
  const den = (y.n < 0n ? -y.n : y.n) * 10n ** BigInt(x.scale);
  const q = (num + den) / (2n * den);
  return fromScaled(a.negative !== b.negative ? -q : q, digits);
}
