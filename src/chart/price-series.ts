/**
 * The chart's one series, drawing candles or a line of closes over the same candles, as a custom
 * series of lightweight-charts. It draws them as the library's own `CandlestickSeries` and
 * `LineSeries` do (same candle widths and pixel rounding; a 2 px line with round joins and a ringed
 * dot where the crosshair meets it), with one colour per candle as the board uses them. The two
 * built-in series would add 2.8 KB gzip to the chart chunk, most of it options the board never
 * sets (borders, wick colours, line styles, steps, curves); this one also switches mode in place.
 */
import type {
  ICustomSeriesPaneRenderer,
  ICustomSeriesPaneView,
  ISeriesPrimitive,
  PaneRendererCustomData,
  PriceToCoordinateConverter,
} from 'lightweight-charts';
import type { Candle } from '../shared/types';
import type { ChartType, PriceSeriesOptions } from './types';

type Bars = PaneRendererCustomData<number, Candle>;
type Target = Parameters<ICustomSeriesPaneRenderer['draw']>[0];
type Scope = Parameters<Parameters<Target['useBitmapCoordinateSpace']>[0]>[0];

const LINE_WIDTH = 2;
/** The crosshair dot on the line: radius and ring, as lightweight-charts' line series has them. */
const DOT = 4;
const RING = 2;

/** lightweight-charts' candle body width (bitmap pixels) for a bar spacing (CSS pixels). */
function candleWidth(spacing: number, ratio: number): number {
  if (spacing >= 2.5 && spacing <= 4) return Math.floor(3 * ratio);
  const coeff = 1 - (0.2 * Math.atan(Math.max(4, spacing) - 4)) / (Math.PI * 0.5);
  return Math.max(Math.floor(ratio), Math.min(Math.floor(spacing * coeff * ratio), Math.floor(spacing * ratio)));
}

export class PriceSeries implements ICustomSeriesPaneView<number, Candle, PriceSeriesOptions> {
  /** What is drawn; after a change, set the data again (the price range depends on it). */
  mode: ChartType = 'candles';
  /** The candle under the crosshair (its dot is drawn in line mode); the chart sets it. */
  hovered: Candle | undefined;
  /** The chart's background, the colour of the dot's ring. */
  ring = '';
  #bars: Bars | undefined;
  #options: PriceSeriesOptions | undefined;
  #at: ((c: Candle) => [number | null, number | null]) | undefined;

  /** The dot, drawn on the crosshair layer (attach it to the series). */
  readonly dot: ISeriesPrimitive<number> = {
    attached: ({ chart, series }) => {
      this.#at = (c) => [chart.timeScale().timeToCoordinate(c.time), series.priceToCoordinate(c.close)];
    },
    paneViews: () => [{ zOrder: () => 'top', renderer: () => ({ draw: (target) => this.#drawDot(target) }) }],
  };

  renderer(): this {
    return this;
  }

  update(bars: Bars, options: PriceSeriesOptions): void {
    this.#bars = bars;
    this.#options = options;
  }

  /** The price range each candle spans (the last value is the current one). */
  priceValueBuilder(c: Candle): number[] {
    return this.mode === 'line' ? [c.close] : [c.low, c.high, c.close];
  }

  isWhitespace(c: Candle | { time: number }): c is { time: number } {
    return !('close' in c);
  }

  defaultOptions(): PriceSeriesOptions {
    return {} as PriceSeriesOptions; // lightweight-charts fills in its defaults
  }

  draw(target: Target, priceToY: PriceToCoordinateConverter): void {
    const range = this.#bars?.visibleRange;
    if (range && range.from < range.to) {
      target.useBitmapCoordinateSpace((scope) =>
        (this.mode === 'line' ? this.#drawLine : this.#drawCandles)(scope, priceToY, range),
      );
    }
  }

  #drawCandles = (
    scope: Scope,
    priceToY: PriceToCoordinateConverter,
    { from, to }: { from: number; to: number },
  ): void => {
    const { context: ctx, horizontalPixelRatio: h, verticalPixelRatio: v } = scope;
    const { bars, barSpacing } = this.#bars!;
    const { upColor, downColor } = this.#options!;
    const y = (price: number) => Math.round(priceToY(price)! * v);
    // As lightweight-charts does: the body's width and the wick's (the grid's line width) are
    // both odd or both even, so that the wick sits in the middle; no bar overlaps the one before.
    const wick = Math.floor(h);
    let width = candleWidth(barSpacing, h);
    if (width >= 2 && wick % 2 !== width % 2) width--;
    let wickEdge = -Infinity;
    let bodyEdge = -Infinity;
    for (let i = from; i < to; i++) {
      const { x, originalData: c } = bars[i]!;
      const top = y(Math.max(c.open, c.close));
      const bottom = y(Math.min(c.open, c.close));
      const high = y(c.high);
      const low = y(c.low);
      ctx.fillStyle = c.close >= c.open ? upColor : downColor;
      let left = Math.round(x * h) - (wick >> 1);
      let right = left + wick - 1;
      left = Math.min(Math.max(wickEdge + 1, left), right);
      ctx.fillRect(left, high, right - left + 1, top - high);
      ctx.fillRect(left, bottom + 1, right - left + 1, low - bottom);
      wickEdge = right;
      left = Math.round(x * h) - (width >> 1);
      right = left + width - 1;
      left = Math.min(Math.max(bodyEdge + 1, left), right);
      ctx.fillRect(left, top, right - left + 1, bottom - top + 1);
      bodyEdge = right;
    }
  };

  #drawLine = (scope: Scope, priceToY: PriceToCoordinateConverter, range: { from: number; to: number }): void => {
    const { context: ctx, horizontalPixelRatio: h, verticalPixelRatio: v } = scope;
    const { bars, barSpacing } = this.#bars!;
    const first = bars[range.from]!;
    // One bar past each edge, so that the line runs off the pane rather than stopping short of it;
    // lightweight-charts places only the visible bars.
    const from = Math.max(range.from - 1, 0);
    const to = Math.min(range.to + 1, bars.length);
    ctx.lineWidth = LINE_WIDTH * v;
    ctx.lineJoin = 'round';
    ctx.strokeStyle = this.#options!.color;
    ctx.beginPath();
    for (let i = from; i < to; i++) {
      const x = first.x + (bars[i]!.time - first.time) * barSpacing;
      const y = priceToY(bars[i]!.originalData.close)! * v;
      // A single candle is a short level line, one bar wide.
      if (to - from < 2) ctx.moveTo((x - barSpacing / 2) * h, y);
      ctx.lineTo((to - from < 2 ? x + barSpacing / 2 : x) * h, y);
    }
    ctx.stroke();
  };

  #drawDot(target: Target): void {
    const [x, y] = (this.mode === 'line' && this.hovered && this.#at?.(this.hovered)) || [];
    if (x == null || y == null) return;
    target.useBitmapCoordinateSpace(({ context: ctx, horizontalPixelRatio: h, verticalPixelRatio: v }) => {
      // centred on the crosshair's line, whose width is odd or even with the pixel ratio
      const half = (Math.max(1, Math.floor(h)) % 2) / 2;
      for (const [radius, color] of [
        [DOT + RING, this.ring],
        [DOT, this.#options!.color],
      ] as const) {
        ctx.fillStyle = color;
        ctx.beginPath();
        ctx.moveTo(Math.round(x * h) + half, y * v);
        ctx.arc(Math.round(x * h) + half, y * v, radius * v + half, 0, 2 * Math.PI);
        ctx.fill();
      }
    });
  }
}
