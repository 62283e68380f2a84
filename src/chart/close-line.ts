/**
 * The line mode: a line of closes, drawn as lightweight-charts' own line series draws it (2 px,
 * round joins, a ringed dot where the crosshair meets it) but as a custom series over the same
 * candles. The built-in `LineSeries` would add 1.8 KB gzip to the chart chunk, most of it line
 * styles, steps and curves the board never uses.
 */
import type {
  CustomSeriesOptions,
  ICustomSeriesPaneRenderer,
  ICustomSeriesPaneView,
  ISeriesPrimitive,
  PaneRendererCustomData,
  PriceToCoordinateConverter,
} from 'lightweight-charts';
import type { Candle } from '../shared/types';

const WIDTH = 2;
/** The crosshair dot: radius and ring, as lightweight-charts' line series has them by default. */
const DOT = 4;
const RING = 2;

type Bars = PaneRendererCustomData<number, Candle>;
type Target = Parameters<ICustomSeriesPaneRenderer['draw']>[0];

export class CloseLine implements ICustomSeriesPaneView<number, Candle> {
  /** The candle under the crosshair, whose dot is drawn; the chart sets it. */
  hovered: Candle | undefined;
  /** The chart's background, the colour of the dot's ring. */
  ring = '';
  #bars: Bars | undefined;
  #color = '';
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

  update(bars: Bars, options: CustomSeriesOptions): void {
    this.#bars = bars;
    this.#color = options.color;
  }

  priceValueBuilder(c: Candle): number[] {
    return [c.close];
  }

  isWhitespace(c: Candle | { time: number }): c is { time: number } {
    return !('close' in c);
  }

  defaultOptions(): CustomSeriesOptions {
    return {} as CustomSeriesOptions; // lightweight-charts fills in its defaults
  }

  draw(target: Target, priceToY: PriceToCoordinateConverter): void {
    const range = this.#bars?.visibleRange;
    if (!range || range.from >= range.to) return;
    const { bars, barSpacing } = this.#bars!;
    const first = bars[range.from]!;
    // One bar past each edge, so that the line runs off the pane rather than stopping short of it;
    // lightweight-charts places only the visible bars.
    const from = Math.max(range.from - 1, 0);
    const to = Math.min(range.to + 1, bars.length);
    target.useBitmapCoordinateSpace(({ context: ctx, horizontalPixelRatio: h, verticalPixelRatio: v }) => {
      ctx.lineWidth = WIDTH * v;
      ctx.lineJoin = 'round';
      ctx.strokeStyle = this.#color;
      ctx.beginPath();
      for (let i = from; i < to; i++) {
        const x = first.x + (bars[i]!.time - first.time) * barSpacing;
        const y = priceToY(bars[i]!.originalData.close)! * v;
        // A single candle is a short level line, one bar wide.
        if (to - from < 2) ctx.moveTo((x - barSpacing / 2) * h, y);
        ctx.lineTo((to - from < 2 ? x + barSpacing / 2 : x) * h, y);
      }
      ctx.stroke();
    });
  }

  #drawDot(target: Target): void {
    const [x, y] = (this.hovered && this.#at?.(this.hovered)) || [];
    if (x == null || y == null) return;
    target.useBitmapCoordinateSpace(({ context: ctx, horizontalPixelRatio: h, verticalPixelRatio: v }) => {
      for (const [radius, color] of [
        [DOT + RING, this.ring],
        [DOT, this.#color],
      ] as const) {
        ctx.fillStyle = color;
        ctx.beginPath();
        ctx.arc(Math.round(x * h), y * v, radius * v, 0, 2 * Math.PI);
        ctx.fill();
      }
    });
  }
}
