/**
 * The crosshair legend: a small Persian overlay with the hovered candle's Jalali date/time and
 * OHLC, and the same words as a sentence for the text alternative. Text only, never HTML.
 */
import type { Candle } from '../shared/types';
import type { ChartTheme } from './types';

const LABELS = ['باز', 'بیشترین', 'کمترین', 'پایانی'] as const;

function ohlc(candle: Candle, formatPrice: (v: number) => string): string[] {
  const values = [candle.open, candle.high, candle.low, candle.close];
  return values.map((v, i) => `${LABELS[i]} ${formatPrice(v)}`);
}

/** `آخرین شمع ۱ آذر ۱۴۰۵: باز ۱۰۵٬۰۰۰، بیشترین …، کمترین …، پایانی …`. */
export function describeCandle(candle: Candle, when: string, formatPrice: (v: number) => string): string {
  return `آخرین شمع ${when}: ${ohlc(candle, formatPrice).join('، ')}`;
}

/** The legend element and how to fill it. */
export interface Legend {
  readonly element: HTMLElement;
  /** Shows a candle (`when` is its time label), or nothing. */
  show(candle: Candle | undefined, when: string, formatPrice: (v: number) => string): void;
  setTheme(theme: ChartTheme): void;
}

/**
 * Creates the legend as the first line of `parent`, above the plot: one line high whatever it
 * shows (its styles are the chart section's), so the plot below keeps its size while the crosshair moves. It is `part="chart-legend"`,
 * so a page can style it from outside the board's shadow root; the board shows fewer of its items
 * when narrow.
 */
export function createLegend(parent: HTMLElement): Legend {
  const element = document.createElement('div');
  element.setAttribute('part', 'chart-legend');
  element.dir = 'rtl';
  element.lang = 'fa';
  // its box: chart-section.styles.ts
  parent.append(element);

  return {
    element,
    setTheme(theme) {
      element.style.color = theme.text;
      element.style.fontFamily = theme.font;
    },
    show(candle, when, formatPrice) {
      const parts = candle ? [when, ...ohlc(candle, formatPrice)] : [];
      element.replaceChildren(
        ...parts.map((text) => {
          const span = document.createElement('span');
          span.textContent = text;
          return span;
        }),
      );
    },
  };
}
