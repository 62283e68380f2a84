// Types shared by the sandbox modules. The sandbox never imports from src/ (and src/ never
// imports the sandbox), so the wire types are restated here.

export type Category = 'currency' | 'gold' | 'coin' | 'silver' | 'global';
export type PriceUnit = 'unit' | 'gram' | 'mesghal' | 'count' | 'usd_ounce';

/** `auto` follows Tehran trading hours; `open`/`closed` force the state. */
export type MarketMode = 'auto' | 'open' | 'closed';

/** A quote as served on the wire: every number is a decimal string. */
export interface Quote {
  symbol: string;
  title: string;
  category: Category;
  unit: PriceUnit;
  price: string;
  price_toman: string;
  change_pct: string;
  high: string;
  low: string;
  updated_at: string;
}

export interface SandboxOptions {
  /** Trading hours: `auto` (Tehran hours, the default), or forced `open` / `closed`. */
  market?: MarketMode;
  /** Interval of the simulated source read in ms (default 5000; 0 = only on request). */
  tickMs?: number;
  /** Interval of SSE comment heartbeats in ms (default 15000). */
  heartbeatMs?: number;
  /** SSE `retry:` value in ms (default 3000). */
  retryMs?: number;
  /** Seed of the simulated market and of the history (default 1404). */
  seed?: number;
  /** Clock in epoch ms (default `Date.now`). */
  now?: () => number;
  /** Stream events kept for `Last-Event-ID` resume (default 1000). */
  bufferSize?: number;
}
