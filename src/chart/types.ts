/**
 * The chart's contract with the board. Types only: the board imports
 * them without pulling lightweight-charts into its initial bundle.
 */
import type { CustomSeriesOptions, IChartApiBase, ISeriesApi } from 'lightweight-charts';
import type { Candle } from '../shared/types';
import type { JalaliTimeScale } from './jalali-scale';

/** The price series' options (price-series.ts): `color` is the line's, or (candles) the last candle's, for the price line and label. */
export interface PriceSeriesOptions extends CustomSeriesOptions {
  upColor: string;
  downColor: string;
}

/** How the series is drawn. */
export type ChartType = 'candles' | 'line';

/**
 * Colours and font of the chart. Canvas drawing needs resolved CSS colours (`#fff`, `rgb(...)`),
 * not `var(--x)`.
 */
export interface ChartTheme {
  background: string;
  text: string;
  muted: string;
  border: string;
  up: string;
  down: string;
  accent: string;
  font: string;
}

/** Options of {@link createPriceChart}. */
export interface PriceChartOptions {
  /** The chart fills it and follows its size; give it a height. */
  container: HTMLElement;
  type: ChartType;
  theme: ChartTheme;
  /** Price axis, crosshair and legend labels: Persian digits, the board's unit, fixed fraction digits. */
  formatPrice(value: number): string;
}

/** A live chart of one symbol's candles with a Jalali time axis. */
export interface PriceChart {
  /** Full replace (history loaded / span changed); candles ascending by unique `time`. Fits the view. */
  setData(candles: Candle[]): void;
  /** The last candle follows live quotes (a new `time` appends; an older one is ignored). */
  update(candle: Candle): void;
  /** Candles or a line of closes, switched in place. */
  setType(type: ChartType): void;
  setTheme(theme: ChartTheme): void;
  setPriceFormatter(fn: (v: number) => string): void;
  /** Text alternative: the latest candle in Persian words. */
  describeLast(): string;
  /** Removes the chart, its DOM and its listeners. Further calls do nothing. */
  destroy(): void;
  /** The lightweight-charts objects underneath, for tests and advanced use. */
  inspect?(): PriceChartInternals;
}

/** What {@link PriceChart.inspect} returns. */
export interface PriceChartInternals {
  chart: IChartApiBase<number>;
  series: ISeriesApi<'Custom', number, Candle | { time: number }, PriceSeriesOptions>;
  scale: JalaliTimeScale;
  /** The crosshair legend element. */
  legend: HTMLElement;
}
