/**
 * Exact decimal strings, as digit strings: prices arrive as strings of any length and must never
 * pass through a float on their way to the screen.
 */
import { PriceBoardError } from '../shared/errors';

/** A decimal in canonical form: `int` has no leading zeros (`"0"` for none), `frac` no trailing zeros. */
export interface Decimal {
  negative: boolean;
  int: string;
  frac: string;
}

const DECIMAL = /^[+-]?\d+(\.\d+)?$/;

/** The canonical form of a sign, integer digits and fraction digits. */
export function canonical(negative: boolean, int: string, frac: string): Decimal {
  const i = int.replace(/^0+(?=\d)/, '') || '0';
  const f = frac.replace(/0+$/, '');
  // "-0" and "-0.00" are zero, and zero has no sign.
  return { negative: negative && (i !== '0' || f !== ''), int: i, frac: f };
}

/** Parses `"-0012.50"`-style input (trimmed); throws `bad_response` on anything else. */
export function parseDecimal(value: string): Decimal {
  const s = typeof value === 'string' ? value.trim() : '';
  if (!DECIMAL.test(s)) {
    throw new PriceBoardError('bad_response', `Not a decimal number: ${JSON.stringify(String(value)).slice(0, 40)}`);
  }
  const body = s[0] === '-' || s[0] === '+' ? s.slice(1) : s;
  const [int = '0', frac = ''] = body.split('.');
  return canonical(s[0] === '-', int, frac);
}

/** True for zero (in canonical form). */
export function isZero(d: Decimal): boolean {
  return d.int === '0' && d.frac === '';
}

/** Adds one to a string of digits. */
function increment(digits: string): string {
  const out = digits.split('');
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] !== '9') {
      out[i] = String(Number(out[i]) + 1);
      return out.join('');
    }
    out[i] = '0';
  }
  return `1${out.join('')}`;
}

/** Rounds to at most `digits` fraction digits, half away from zero ("half-up" on the magnitude). */
export function roundDecimal(d: Decimal, digits: number): Decimal {
  if (d.frac.length <= digits) return d;
  const kept = d.int + d.frac.slice(0, digits);
  const rounded = (d.frac[digits] ?? '0') >= '5' ? increment(kept) : kept;
  const split = rounded.length - digits;
  return canonical(d.negative, rounded.slice(0, split), rounded.slice(split));
}

/** Divides by ten exactly (moves the decimal point one place left). */
export function divideByTen(d: Decimal): Decimal {
  const int = d.int.padStart(2, '0');
  return canonical(d.negative, int.slice(0, -1), int.slice(-1) + d.frac);
}

/** The canonical string: `"-1.5"`, `"0"`, `"123456.7"`. */
export function decimalToString(d: Decimal): string {
  return `${d.negative ? '-' : ''}${d.int}${d.frac ? `.${d.frac}` : ''}`;
}

/*
 * Exact fractions, for values derived from several decimals (a change amount, a coin's bubble):
 * every decimal is an integer over a power of ten, and sums, products and quotients of such
 * fractions are fractions of BigInts, so nothing is lost until the one rounding at the end.
 */
