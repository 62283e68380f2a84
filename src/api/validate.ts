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
 * A decimal string as sent; a plain JSON number is tolerated when it prints as a decimal and is
 * exact: beyond 2^53 JSON.parse has already rounded it, and a rounded price must not be shown.
 */
function decimalField(value: unknown, where: string): string {
  if (typeof value === 'number' && Math.abs(value) > Number.MAX_SAFE_INTEGER)
    throw bad(`${where}: a number too large to be exact`);
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : undefined;
  if (text === undefined || !DECIMAL.test(text)) throw bad(`${where}: not a decimal`);
  return text;
}

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
  for (const field of DECIMAL_FIELDS) quote[field] = decimalField(x[field], `${where}.${field}`);
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
