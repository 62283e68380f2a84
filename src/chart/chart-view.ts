/**
 * What the board, the chart controller (with the board's extras) and the chart area (lazy) share
 * about the chart: the controller imports the area's code lazily and the area imports nothing of
 * the controller, so they depend one way, through this file.
 */
import type { ChartMode, HistoryDays } from '../shared/attributes';
import { PriceBoardError } from '../shared/errors';
import type { DisplayUnit, Quote } from '../shared/types';

/** What the chart shows; the board passes it on every update. */
export interface ChartSettings {
  mode: ChartMode;
  symbol: string;
  days: HistoryDays;
  unit: DisplayUnit;
  theme: string;
  baseUrl: string;
  apiKey: string | undefined;
}

/** What the chart needs from the board. */
export interface ChartHooks {
  /** The element the chart fills (inside `part="chart"`), once rendered. */
  container(): HTMLElement | null | undefined;
  /** The element whose computed `--_*` custom properties give the chart its colours. */
  themeSource(): HTMLElement | null | undefined;
  /** The latest quote of a symbol, to bring fresh history up to now. */
  latest(symbol: string): Quote | undefined;
  /** A failure the user should know of (the board fires `price-board-error`). */
  onError(error: PriceBoardError): void;
}

export type ChartStatus = 'idle' | 'loading' | 'ready' | 'error';

/** What the template shows of the chart area: written by whichever of the two owns the chart now. */
export interface ChartView {
  status: ChartStatus;
  /** The span shown, which may be shorter than asked when the plan rejects a longer one. */
  shownDays: HistoryDays | undefined;
  /** A visible Persian note, e.g. about the span fallback. */
  note: string | undefined;
  error: PriceBoardError | undefined;
  /** Text alternative of the chart (the latest candle in Persian words). */
  description: string;
}

export type ChartModule = typeof import('./price-chart');

/** A chunk of the chart (the area's, or lightweight-charts') did not load. */
export function chartLoadFailed(cause: unknown): PriceBoardError {
  return new PriceBoardError('network', 'The chart module failed to load', { cause });
}
