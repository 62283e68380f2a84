/**
 * The board's attributes: their defaults, and parsing of what users write into the settings the
 * board runs on. Every value is tolerated: an invalid one falls back to its default and is
 * reported (`invalid_attribute`), so a typo never leaves a broken box on the page.
 */
import type { DisplayUnit } from '../api/types';

export type StreamMode = 'auto' | 'sse' | 'poll' | 'off';
export type ThemeMode = 'light' | 'dark' | 'auto';
export type ChartMode = 'candles' | 'line' | 'none';
/** History spans the board offers. */
export type HistoryDays = 7 | 30 | 365;

export const STREAM_MODES: readonly StreamMode[] = ['auto', 'sse', 'poll', 'off'];
export const THEMES: readonly ThemeMode[] = ['light', 'dark', 'auto'];
export const CHART_MODES: readonly ChartMode[] = ['candles', 'line', 'none'];
export const UNITS: readonly DisplayUnit[] = ['toman', 'rial'];
/** The span buttons, shortest first; the plan fallback walks them backwards. */
export const DAY_OPTIONS: readonly HistoryDays[] = [7, 30, 365];

/** Polling faster than this would eat the smallest plan's request budget. */
export const MIN_POLL_INTERVAL = 5;

export const DEFAULTS = {
  symbols: 'usd,eur,gold_18,coin_emami,ons',
  stream: 'auto',
  pollInterval: 30,
  unit: 'toman',
  theme: 'auto',
  chart: 'candles',
  days: 30,
} as const satisfies Partial<Record<keyof BoardAttributes, unknown>>;

const SYMBOL_ID = /^[a-z0-9_]+$/;

/** The attribute-backed properties as users may set them (any value may arrive at run time). */
export interface BoardAttributes {
  symbols: string | null | undefined;
  apiKey: string | null | undefined;
  baseUrl: string | null | undefined;
  stream: string | null | undefined;
  streamUrl: string | null | undefined;
  pollInterval: number | string | null | undefined;
  unit: string | null | undefined;
  theme: string | null | undefined;
  chart: string | null | undefined;
  chartSymbol: string | null | undefined;
  days: number | string | null | undefined;
}

/** What the board runs on: every value valid. */
export interface BoardSettings {
  symbols: string[];
  apiKey: string | undefined;
  baseUrl: string;
  stream: StreamMode;
  /** `undefined`: the hub's default, `{baseUrl}/v1/stream`. */
  streamUrl: string | undefined;
  pollInterval: number;
  unit: DisplayUnit;
  theme: ThemeMode;
  chart: ChartMode;
  /** Always one of `symbols`. */
  chartSymbol: string;
  days: HistoryDays;
}

/** Property name → attribute name, for messages and the manifest. */
export const ATTRIBUTE_NAMES: Readonly<Record<keyof BoardAttributes, string>> = {
  symbols: 'symbols',
  apiKey: 'api-key',
  baseUrl: 'base-url',
  stream: 'stream',
  streamUrl: 'stream-url',
  pollInterval: 'poll-interval',
  unit: 'unit',
  theme: 'theme',
  chart: 'chart',
  chartSymbol: 'chart-symbol',
  days: 'days',
};

interface Parsed<T> {
  value: T;
  invalid: boolean;
}

const ok = <T>(value: T): Parsed<T> => ({ value, invalid: false });
const bad = <T>(value: T): Parsed<T> => ({ value, invalid: true });
const isUnset = (raw: unknown): raw is null | undefined => raw === null || raw === undefined;

/** Comma-separated ids: trimmed, lower-cased, order kept, duplicates and empty pieces dropped. */
export function parseSymbols(raw: unknown): Parsed<string[]> {
  const fallback = DEFAULTS.symbols.split(',');
  if (isUnset(raw)) return ok(fallback);
  const text = Array.isArray(raw) ? raw.join(',') : String(raw);
  const seen = new Set<string>();
  let invalid = false;
  for (const piece of text.split(',')) {
    const id = piece.trim().toLowerCase();
    if (id === '') continue;
    if (SYMBOL_ID.test(id)) seen.add(id);
    else invalid = true;
  }
  if (seen.size === 0) return bad(fallback);
  return { value: [...seen], invalid };
}

/** One of `allowed`, case and surrounding spaces tolerated. */
export function parseChoice<T extends string>(raw: unknown, allowed: readonly T[], fallback: T): Parsed<T> {
  if (isUnset(raw)) return ok(fallback);
  const value = String(raw).trim().toLowerCase();
  return (allowed as readonly string[]).includes(value) ? ok(value as T) : bad(fallback);
}

/** Seconds between polls: a finite number of at least {@link MIN_POLL_INTERVAL}. */
export function parsePollInterval(raw: unknown): Parsed<number> {
  if (isUnset(raw)) return ok(DEFAULTS.pollInterval);
  const n = typeof raw === 'number' ? raw : Number(String(raw).trim() || NaN);
  return Number.isFinite(n) && n >= MIN_POLL_INTERVAL ? ok(n) : bad(DEFAULTS.pollInterval);
}

export function parseDays(raw: unknown): Parsed<HistoryDays> {
  if (isUnset(raw)) return ok(DEFAULTS.days);
  const n = typeof raw === 'number' ? raw : Number(String(raw).trim() || NaN);
  return (DAY_OPTIONS as readonly number[]).includes(n) ? ok(n as HistoryDays) : bad(DEFAULTS.days);
}

function toHttpUrl(raw: string): URL | undefined {
  try {
    const url = new URL(raw, globalThis.document?.baseURI);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The service address, resolved against the page (a relative `/prices` works), without query,
 * fragment or trailing slash: the client appends `/v1/...`.
 */
export function parseBaseUrl(raw: unknown, fallback: string): Parsed<string> {
  if (isUnset(raw) || String(raw).trim() === '') return ok(fallback);
  const url = toHttpUrl(String(raw).trim());
  if (!url) return bad(fallback);
  return ok(`${url.origin}${url.pathname}`.replace(/\/+$/, ''));
}

/** The SSE address, resolved against the page; unset → `undefined` (the hub's default). */
export function parseStreamUrl(raw: unknown): Parsed<string | undefined> {
  if (isUnset(raw) || String(raw).trim() === '') return ok(undefined);
  const url = toHttpUrl(String(raw).trim());
  return url ? ok(url.href) : bad(undefined);
}

/** The key is sent as a header only; it is never validated here, so it never lands in a message. */
export function parseApiKey(raw: unknown): string | undefined {
  if (isUnset(raw)) return undefined;
  const key = String(raw).trim();
  return key === '' ? undefined : key;
}

/** The chart symbol: a well-formed id; one not on the board falls back to the first symbol. */
export function parseChartSymbol(raw: unknown, symbols: readonly string[]): Parsed<string> {
  const first = symbols[0] ?? DEFAULTS.symbols.split(',')[0]!;
  if (isUnset(raw) || String(raw).trim() === '') return ok(first);
  const id = String(raw).trim().toLowerCase();
  if (!SYMBOL_ID.test(id)) return bad(first);
  return symbols.includes(id) ? ok(id) : bad(first);
}

/** The result of {@link readSettings}: the settings and the attributes that fell back to defaults. */
export interface SettingsRead {
  settings: BoardSettings;
  /** Attribute names (`poll-interval`, ...) whose value was invalid, each reported once per change. */
  invalid: string[];
}

/**
 * Parses the attributes that changed (all of them when there are no previous settings) and keeps
 * the rest from `previous`, so an invalid value is reported once, when it is set, not on every
 * update. A chart symbol that drops out of a changed symbol list follows the first symbol quietly;
 * one set explicitly to a symbol not on the board is reported.
 */
export function readSettings(
  attrs: BoardAttributes,
  defaultBaseUrl: string,
  previous?: BoardSettings,
  changed?: { has(key: PropertyKey): boolean },
): SettingsRead {
  const invalid: string[] = [];
  const has = (key: keyof BoardAttributes) => !previous || !changed || changed.has(key);
  const take = <T>(key: keyof BoardAttributes, parsed: Parsed<T>): T => {
    if (parsed.invalid) invalid.push(ATTRIBUTE_NAMES[key]);
    return parsed.value;
  };
  const p = previous;
  const symbols = p && !has('symbols') ? p.symbols : take('symbols', parseSymbols(attrs.symbols));
  const settings: BoardSettings = {
    symbols,
    apiKey: p && !has('apiKey') ? p.apiKey : parseApiKey(attrs.apiKey),
    baseUrl: p && !has('baseUrl') ? p.baseUrl : take('baseUrl', parseBaseUrl(attrs.baseUrl, defaultBaseUrl)),
    stream: p && !has('stream') ? p.stream : take('stream', parseChoice(attrs.stream, STREAM_MODES, DEFAULTS.stream)),
    streamUrl: p && !has('streamUrl') ? p.streamUrl : take('streamUrl', parseStreamUrl(attrs.streamUrl)),
    pollInterval: p && !has('pollInterval') ? p.pollInterval : take('pollInterval', parsePollInterval(attrs.pollInterval)),
    unit: p && !has('unit') ? p.unit : take('unit', parseChoice(attrs.unit, UNITS, DEFAULTS.unit)),
    theme: p && !has('theme') ? p.theme : take('theme', parseChoice(attrs.theme, THEMES, DEFAULTS.theme)),
    chart: p && !has('chart') ? p.chart : take('chart', parseChoice(attrs.chart, CHART_MODES, DEFAULTS.chart)),
    chartSymbol: symbols[0]!,
    days: p && !has('days') ? p.days : take('days', parseDays(attrs.days)),
  };
  const chartSymbol = parseChartSymbol(attrs.chartSymbol, symbols);
  settings.chartSymbol = chartSymbol.value;
  if (chartSymbol.invalid && has('chartSymbol')) invalid.push(ATTRIBUTE_NAMES.chartSymbol);
  return { settings, invalid };
}

/** The Persian message of an `invalid_attribute` error: names the attribute, never echoes its value. */
export function invalidAttributeMessage(attribute: string): string {
  return `مقدار ویژگی «${attribute}» نامعتبر است؛ مقدار پیش‌فرض به کار رفت.`;
}
