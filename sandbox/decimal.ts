// Exact arithmetic on decimal strings (BigInt with a scale): prices are strings on the wire and
// may be longer than a float can hold, so nothing that is served goes through a float.

interface Dec {
  n: bigint;
  s: number;
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

export function isDecimal(value: string): boolean {
  return DECIMAL.test(value);
}

function parse(value: string): Dec {
  if (!DECIMAL.test(value)) throw new Error(`not a decimal string: ${value}`);
  const negative = value.startsWith('-');
  const [int = '', frac = ''] = (negative ? value.slice(1) : value).split('.');
  const n = BigInt(int + frac);
  return { n: negative ? -n : n, s: frac.length };
}

function format({ n, s }: Dec): string {
  const digits = (n < 0n ? -n : n).toString().padStart(s + 1, '0');
  const body = s > 0 ? `${digits.slice(0, -s)}.${digits.slice(-s)}` : digits;
  return n < 0n ? `-${body}` : body;
}

function aligned(a: string, b: string): [bigint, bigint] {
  const x = parse(a);
  const y = parse(b);
  const s = Math.max(x.s, y.s);
  return [x.n * 10n ** BigInt(s - x.s), y.n * 10n ** BigInt(s - y.s)];
}

/** Division of integers rounded half away from zero. */
function divRound(num: bigint, den: bigint): bigint {
  const q = num / den;
  const r = num % den;
  const twice = 2n * (r < 0n ? -r : r);
  if (twice < (den < 0n ? -den : den)) return q;
  return q + (num < 0n !== den < 0n ? -1n : 1n);
}

export function compare(a: string, b: string): number {
  const [x, y] = aligned(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export const max = (a: string, b: string): string => (compare(a, b) >= 0 ? a : b);
export const min = (a: string, b: string): string => (compare(a, b) <= 0 ? a : b);

/** `value / 10` exactly, without trailing fractional zeros: rials → tomans. */
export function divideBy10(value: string): string {
  const d = parse(value);
  return format({ n: d.n, s: d.s + 1 })
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
}

/** `a × b / 10` rounded to a whole number: a dollar price at a dollar rate in rials → tomans. */
export function dollarsToToman(dollars: string, usdRial: string): string {
  const x = parse(dollars);
  const y = parse(usdRial);
  return format({ n: divRound(x.n * y.n, 10n ** BigInt(x.s + y.s + 1)), s: 0 });
}

/** Percent change from `base` to `value` with two decimals ("1.23", "-0.54", "0.00"). */
export function percentChange(value: string, base: string): string {
  const [v, b] = aligned(value, base);
  if (b === 0n) return '0.00';
  return format({ n: divRound((v - b) * 10_000n, b), s: 2 });
}

/** An integer count of 10^-scale units as a decimal string. */
export function fromUnits(units: number, scale: number): string {
  return format({ n: BigInt(units), s: scale });
}
