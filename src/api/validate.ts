/**
 * Runtime validation of service bodies. Validation is all-or-nothing: one malformed quote fails
 * the whole answer with `bad_response`, so the board never shows half of a bad answer.
 */
import { PriceBoardError } from '../shared/errors';
import type { PricesData, Quote } from '../shared/types';

/** True for a plain (non-array) object. */
export function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

const DECIMAL = /^[+-]?\d+(\.\d+)?$/;
const DECIMAL_FIELDS = ['price', 'price_toman', 'change_pct', 'high', 'low'] as const;
const TEXT_FIELDS = ['title', 'category', 'unit'] as const;
/**
 * Text fields longer than this are cut (with "…"): real titles are under 50 characters, and laying
 * out a 100 KB unbreakable title froze Chromium for seconds (line breaking is not linear).
 */
export const MAX_TEXT_CHARS = 100;

/** `text` cut to {@link MAX_TEXT_CHARS}, never inside a surrogate pair. */
function bounded(text: string): string {
  if (text.length <= MAX_TEXT_CHARS) return text;
  const cut = /[\uD800-\uDBFF]/.test(text[MAX_TEXT_CHARS - 1]!) ? MAX_TEXT_CHARS - 1 : MAX_TEXT_CHARS;
  return `${text.slice(0, cut)}…`;
}

function bad(message: string): PriceBoardError {
  return new PriceBoardError('bad_response', message);
}

/**
 * A decimal string as sent; a plain JSON number is tolerated when it is exact: beyond 2^53, or
 * with more than 15 significant digits and a fraction, JSON.parse may have rounded it, and a
 * rounded price must not be shown. One printed with an exponent (`1e-7`) is written out.
 */
function decimalField(value: unknown, where: string): string {
  if (typeof value === 'number' && !exactNumber(value)) throw bad(`${where}: a number too long to be exact`);
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? plain(value) : undefined;
  if (text === undefined || !DECIMAL.test(text)) throw bad(`${where}: not a decimal`);
  return text;
}

/** Whether JSON.parse can have read `n` without rounding it. */
function exactNumber(n: number): boolean {
  if (Number.isInteger(n)) return Math.abs(n) <= Number.MAX_SAFE_INTEGER;
  const digits = (String(n).split('e')[0] ?? '').replace(/[-.]/g, '').replace(/^0+/, '');
  return digits.length <= 15;
}

/** `n` written out without an exponent: `1e-7` → `"0.0000001"`, `-2.5e-3` → `"-0.0025"`. */
function plain(n: number): string {
  const [mantissa = '', exp] = String(n).split('e');
  if (exp === undefined) return mantissa;
  const negative = mantissa.startsWith('-');
  const [int = '', frac = ''] = mantissa.replace('-', '').split('.');
  const shift = Number(exp);
  const digits = int + frac;
  const point = int.length + shift;
  const text =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return negative ? `-${text}` : text;
}

/** Not a price: below zero (`change_pct` alone may be negative, SERVICE-SPEC §2.1). */
const negative = (text: string): boolean => text.startsWith('-') && /[1-9]/.test(text);
const AMOUNT_FIELDS = new Set<string>(['price', 'price_toman', 'high', 'low']);

/** One Quote; keeps only the documented fields. Throws `bad_response` when any is missing or malformed. */
export function parseQuote(x: unknown, where = 'quote'): Quote {
  if (!isObject(x)) throw bad(`${where}: not an object`);
  if (typeof x.symbol !== 'string' || x.symbol === '') throw bad(`${where}.symbol: missing`);
  if (typeof x.updated_at !== 'string' || Number.isNaN(Date.parse(x.updated_at))) {
    throw bad(`${where}.updated_at: not a date`);
  }
  const quote = { symbol: x.symbol, updated_at: x.updated_at } as Quote;
  for (const field of TEXT_FIELDS) {
    const value = x[field];
    if (typeof value !== 'string') throw bad(`${where}.${field}: not a string`);
    quote[field] = bounded(value);
  }
  for (const field of DECIMAL_FIELDS) {
    const text = decimalField(x[field], `${where}.${field}`);
    if (AMOUNT_FIELDS.has(field) && negative(text)) throw bad(`${where}.${field}: below zero`);
    quote[field] = text;
  }
  return quote;
}

/** An array of quotes, all valid or `bad_response`. */
export function parseQuotes(x: unknown, where: string): Quote[] {
  if (!Array.isArray(x)) throw bad(`${where}: not an array`);
  return x.map((q, i) => parseQuote(q, `${where}[${i}]`));
}

/** The body of GET /v1/prices: `{ data: { at, delay_seconds, quotes } }`. */
export function parsePricesBody(body: unknown): PricesData {
  if (!isObject(body) || !isObject(body.data)) throw bad('no data object');
  const { at, delay_seconds: delay } = body.data;
  if (typeof at !== 'string') throw bad('data.at: not a string');
  const delaySeconds = typeof delay === 'string' && DECIMAL.test(delay.trim()) ? Number(delay) : delay;
  if (typeof delaySeconds !== 'number' || !Number.isFinite(delaySeconds) || delaySeconds < 0) {
    throw bad('data.delay_seconds: not a number');
  }
  return { at, delay_seconds: delaySeconds, quotes: parseQuotes(body.data.quotes, 'data.quotes') };
}
