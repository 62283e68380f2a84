/**
 * What the board's chart (with the board's extras, `board-chart.ts`), the chart area (its lazy
 * chunk, `chart-area.ts`) and the section's template share about the chart: the board's chart
 * imports the area lazily and the area imports nothing of it, so they depend one way, through
 * this file.
 */
import type { HistoryDays } from '../shared/attribute-table';
import { PriceBoardError } from '../shared/errors';

export type ChartStatus = 'idle' | 'loading' | 'ready' | 'error';

/** What the template shows of the chart area, which writes it. */
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

/** A chunk of the chart (the area's, or lightweight-charts') did not load. */
export function chartLoadFailed(cause: unknown): PriceBoardError {
  return new PriceBoardError('network', 'The chart module failed to load', { cause });
}
