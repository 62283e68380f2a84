/**
 * What only the converter and the derived values need (`converter/convert.ts`, `model/`): amounts
 * as people type them, and exact products and quotients of decimals. A module of its own so that
 * it stays out of the board's initial module (vite.config.ts): the board only formats.
 */
import { canonical, decimalToString, parseDecimal, type Decimal } from './decimal';

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
 * Products and quotients: exact fractions of BigInts, rounded once, so they are exact for any digit
 * count, with no float anywhere (the converter's, and the derived values of model/).
 */

/** An exact fraction `num / den`, `den > 0`. */
export interface Ratio {
  num: bigint;
  den: bigint;
}

/** The decimal as a fraction: `"-12.5"` → `-125 / 10`. */
export function toRatio(d: Decimal): Ratio {
  const n = BigInt(d.int + d.frac);
  return { num: d.negative ? -n : n, den: 10n ** BigInt(d.frac.length) };
}

/** `a × b`, exactly. */
export function multiplyRatio(a: Ratio, b: Ratio): Ratio {
  return { num: a.num * b.num, den: a.den * b.den };
}

/** `a − b`, exactly. */
export function subtractRatio(a: Ratio, b: Ratio): Ratio {
  return { num: a.num * b.den - b.num * a.den, den: a.den * b.den };
}

/** `a ÷ b`, exactly; `undefined` when `b` is zero. */
export function divideRatio(a: Ratio, b: Ratio): Ratio | undefined {
  if (b.num === 0n) return undefined;
  const sign = b.num < 0n ? -1n : 1n;
  return { num: a.num * b.den * sign, den: a.den * b.num * sign };
}

/**
 * The fraction rounded to `digits` fraction digits, half away from zero (as `roundDecimal`):
 * `5/2` → `3`, `-5/2` → `-3`, `-1/40` at 2 digits → `-0.03`. Exact: with `m = |num|·10^digits`,
 * `q = ⌊m / den⌋` and `r = m − q·den` are integers, and the rounded magnitude is `q + 1` exactly
 * when the dropped part `r / den` is at least one half, i.e. when `2r ≥ den` (an integer test).
 */
export function roundRatio(r: Ratio, digits: number): Decimal {
  const m = (r.num < 0n ? -r.num : r.num) * 10n ** BigInt(digits);
  const q = m / r.den;
  const rounded = 2n * (m - q * r.den) >= r.den ? q + 1n : q;
  const text = rounded.toString().padStart(digits + 1, '0');
  const split = text.length - digits;
  return canonical(r.num < 0n, text.slice(0, split), text.slice(split));
}

/** The exact product: `1.5 × 12345678901234567890 = 18518518351851851835`. */
export function multiplyDecimal(a: Decimal, b: Decimal): Decimal {
  // Exact at the sum of both scales: the product's denominator is that power of ten.
  return roundRatio(multiplyRatio(toRatio(a), toRatio(b)), a.frac.length + b.frac.length);
}

/**
 * The quotient rounded exactly to `digits` fraction digits, half away from zero (as
 * `roundDecimal`). Throws `RangeError` when `b` is zero.
 */
export function divideDecimal(a: Decimal, b: Decimal, digits: number): Decimal {
  const q = divideRatio(toRatio(a), toRatio(b));
  if (!q) throw new RangeError('Division by zero');
  return roundRatio(q, digits);
}
