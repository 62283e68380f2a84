// Types shared by the sandbox modules. The wire types are the widget's own (src/shared, plain
// types every layer may import); src/ never imports the sandbox.
import type { Category, PriceUnit, Quote as WireQuote } from '../src/shared/types';

export type { Category, PriceUnit };

/** `auto` follows Tehran trading hours; `open`/`closed` force the state. */
export type MarketMode = 'auto' | 'open' | 'closed';

/** A quote as served on the wire (every number a decimal string), of a known category and unit. */
export interface Quote extends WireQuote {
  category: Category;
  unit: PriceUnit;
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
  /** Streams one key (suffix included) may hold open at once (default 1000; env `SANDBOX_MAX_STREAMS_PER_KEY`). */
  maxStreamsPerKey?: number;
  /** Keys whose rate-limit counters are kept, least recently used dropped first (default 10,000). */
  maxKeys?: number;
}
