/** Symbol categories of the service (SERVICE-SPEC 2.1). */
export type Category = 'currency' | 'gold' | 'coin' | 'silver' | 'global';

/** Units a price refers to (SERVICE-SPEC 2.3). */
export type PriceUnit = 'unit' | 'gram' | 'mesghal' | 'count' | 'usd_ounce';

/**
 * One quote as the service sends it. Every numeric value is a decimal string so that large
 * numbers keep their precision: never convert `price`/`price_toman`/`high`/`low` to a float for
 * display.
 */
export interface Quote {
  symbol: string;
  /** Persian display name; render as text, never as HTML. */
  title: string;
  category: string;
  unit: string;
  /** Rials; US dollars per ounce for `ons` and `silver_ounce`. */
  price: string;
  price_toman: string;
  /** Signed decimal string, e.g. "1.23", "-0.54", "0". */
  change_pct: string;
  high: string;
  low: string;
  /** ISO 8601 with a UTC offset. */
  updated_at: string;
}

/** `data` of GET /v1/prices (SERVICE-SPEC 2.2). */
export interface PricesData {
  at: string;
  delay_seconds: number;
  quotes: Quote[];
}

/** One entry of GET /v1/symbols, normalised. */
export interface SymbolInfo {
  symbol: string;
  title?: string;
  category?: string;
  unit?: string;
}

/** A candle for the chart. `time` is UTC epoch seconds; values are numbers (drawing only). */
export interface Candle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

/** The display unit chosen by the `unit` attribute. */
export type DisplayUnit = 'toman' | 'rial';

/** Connection states reported by `price-board-status`. */
export type ConnectionStatus = 'loading' | 'live' | 'polling' | 'reconnecting' | 'offline' | 'error';

/** Symbols priced in US dollars: they always show dollars, whatever `unit` says. */
export const DOLLAR_SYMBOLS: ReadonlySet<string> = new Set(['ons', 'silver_ounce']);
