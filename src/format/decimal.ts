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

function canonical(negative: boolean, int: string, frac: string): Decimal {
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
 * Products and quotients (the converter): a Decimal is an integer of digits scaled by 10^-n, so
 * BigInt arithmetic on those integers is exact for any digit count, with no float anywhere.
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
 * {@link roundDecimal}). Throws `RangeError` when `b` is zero.
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
