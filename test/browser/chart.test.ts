// The chart chunk in real Chromium (locale fa-IR, Asia/Tehran): drawing, the Jalali time axis,
// Persian labels, live updates, theme/type switching, the legend and cleanup.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { defaultHorzScaleBehavior } from 'lightweight-charts';
import type { Mutable, TickMarkWeightValue, TimeScalePoint, UTCTimestamp } from 'lightweight-charts';
import type { Candle } from '../../src/shared/types';
import { tehranParts } from '../../src/format/tehran-parts';
import { formatAxisNumber } from '../../src/format/axis-number';
import {
  DAY_MARK,
  HOUR12_MARK,
  HOUR_MARK,
  MONTH_MARK,
  YEAR_MARK,
  jalaliWeight,
  JalaliTimeScale,
  tickLabel,
} from '../../src/chart/jalali-scale';
import { createPriceChart } from '../../src/chart/price-chart';
import { chartStyles } from '../../src/board/chart-section.styles';
import { axisLabels, cutLabels, recordAxisLabels } from '../support/axis-labels';
import type { ChartTheme, PriceChart, PriceChartInternals } from '../../src/chart/price-chart';

const LATIN_DIGIT = /[0-9]/;
const DAY = 86_400;
/** 1405/09/01 (1 Azar) 00:00 in Tehran = 2026-11-22 00:00 +03:30. */
const AZAR_1 = Date.UTC(2026, 10, 21, 20, 30) / 1000;
/** 2026-12-01 00:00 in Tehran: a Gregorian month start, an ordinary Jalali day (10 Azar). */
const DEC_1_TEHRAN = Date.UTC(2026, 10, 30, 20, 30) / 1000;
/** 2026-12-01 00:00 UTC, where lightweight-charts' default scale would put its month mark. */
const DEC_1_UTC = Date.UTC(2026, 11, 1) / 1000;
/** 1405/01/01 (Nowruz) 00:00 in Tehran = 2026-03-21 00:00 +03:30. */
const NOWRUZ_1405 = Date.UTC(2026, 2, 20, 20, 30) / 1000;

const light: ChartTheme = {
  background: '#ffffff',
  text: '#111111',
  muted: '#666666',
  border: '#dddddd',
  up: '#0a8f3c',
  down: '#c62828',
  accent: '#1565c0',
  font: 'sans-serif',
};
const dark: ChartTheme = { ...light, background: '#101418', text: '#eeeeee', border: '#333333' };

const formatPrice = (v: number): string => formatAxisNumber(v, 0);

/** `count` candles `step` seconds apart from `start`. */
function candles(start: number, count: number, step = DAY): Candle[] {
  return Array.from({ length: count }, (_, i) => {
    const open = 105_000 + i * 100;
    return { time: start + i * step, open, high: open + 1_000, low: open - 1_000, close: open + 500 };
  });
}

/** Time-scale points as lightweight-charts hands them to a scale behaviour. */
function pointsAt(times: number[], internal: (t: number) => unknown = (t) => t): Mutable<TimeScalePoint>[] {
  return times.map((t) => ({ time: internal(t), originalTime: t, timeWeight: 0 })) as Mutable<TimeScalePoint>[];
}

/** Weights the scale gives to points at these times. */
function weigh(times: number[]): number[] {
  const points = pointsAt(times);
  new JalaliTimeScale().fillWeightsForPoints(points, 0);
  return points.map((p) => p.timeWeight as number);
}

// The chart's boxes are the chart section's styles, as in the board.
document.adoptedStyleSheets = [...document.adoptedStyleSheets, chartStyles.styleSheet!];

let containers: HTMLElement[] = [];
let charts: PriceChart[] = [];

function mount(
  type: 'candles' | 'line' = 'candles',
  format: (v: number) => string = formatPrice,
  width = 640,
): { chart: PriceChart; container: HTMLElement; internals: () => PriceChartInternals } {
  const container = document.createElement('div');
  container.dir = 'rtl';
  Object.assign(container.style, { width: `${width}px`, height: '320px' });
  document.body.append(container);
  const chart = createPriceChart({ container, type, theme: light, formatPrice: format });
  containers.push(container);
  charts.push(chart);
  return { chart, container, internals: () => chart.inspect!() };
}

/** Waits until the chart has its size and has painted. */
async function painted(container: HTMLElement): Promise<HTMLCanvasElement> {
  await vi.waitFor(() => {
    const canvas = container.querySelector('canvas');
    expect(canvas?.width).toBeGreaterThan(0);
    expect(canvas?.height).toBeGreaterThan(0);
  });
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return container.querySelector('canvas')!;
}

afterEach(() => {
  for (const c of charts) c.destroy();
  for (const c of containers) c.remove();
  charts = [];
  containers = [];
  vi.restoreAllMocks();
});

describe('Jalali time scale', () => {
  it('puts month weight on Jalali month starts in Tehran, not on Gregorian ones', () => {
    // Daily candles at Tehran midnight from 20 Aban to 19 Azar 1405 (11 Nov – 10 Dec 2026).
    const times = candles(AZAR_1 - 11 * DAY, 30).map((c) => c.time);
    const weights = weigh(times);
    // (the first point weighs a month whatever its date: its label, the whole date, is drawn first)
    expect(weights[0]).toBe(MONTH_MARK);
    const monthMarks = times.filter((_, i) => i > 0 && weights[i]! >= MONTH_MARK);
    expect(monthMarks).toEqual([AZAR_1]);
    expect(weights[times.indexOf(DEC_1_TEHRAN)]).toBe(DAY_MARK);
    // Whereas lightweight-charts' default scale puts its month mark on a Gregorian (UTC) month.
    const gregorianScale = new (defaultHorzScaleBehavior())();
    const points = pointsAt(times, (t) => gregorianScale.convertHorzItemToInternal(t as UTCTimestamp));
    gregorianScale.fillWeightsForPoints(points, 0);
    const gregorian = times.filter((_, i) => points[i]!.timeWeight >= MONTH_MARK);
    expect(gregorian).toEqual([DEC_1_UTC + 20 * 3600 + 30 * 60]);
    for (const [i, t] of times.entries()) {
      const { day } = tehranParts(new Date(t * 1000));
      if (i > 0) expect(weights[i]! >= MONTH_MARK).toBe(day === 1);
    }
  });

  it('puts year weight on Nowruz in Tehran', () => {
    const times = candles(NOWRUZ_1405 - 5 * DAY, 10).map((c) => c.time);
    const weights = weigh(times);
    expect(times.filter((_, i) => weights[i]! >= YEAR_MARK)).toEqual([NOWRUZ_1405]);
    expect(tickLabel(NOWRUZ_1405, YEAR_MARK)).toBe('۱۴۰۵');
  });

  it('marks the Tehran day boundary in hourly data, not the UTC one', () => {
    const times = candles(AZAR_1 - 6 * 3600, 12, 3600).map((c) => c.time);
    const weights = weigh(times);
    expect(times.filter((_, i) => i > 0 && weights[i]! >= DAY_MARK)).toEqual([AZAR_1]);
    // Gregorian midnight (UTC) and Tehran noon are plain intraday boundaries.
    expect(jalaliWeight(DEC_1_UTC - 3600, DEC_1_UTC)).toBeLessThan(DAY_MARK);
    expect(jalaliWeight(AZAR_1 + 11 * 3600, AZAR_1 + 12 * 3600)).toBe(HOUR12_MARK);
    expect(jalaliWeight(AZAR_1 + 3600, AZAR_1 + 2 * 3600)).toBe(HOUR_MARK);
  });

  it('weighs appended points from the given start index only', () => {
    const scale = new JalaliTimeScale();
    const times = candles(AZAR_1 - 2 * DAY, 4).map((c) => c.time);
    const points = pointsAt(times);
    points[0]!.timeWeight = 1 as TickMarkWeightValue;
    scale.fillWeightsForPoints(points, 2);
    expect(points.map((p) => p.timeWeight)).toEqual([1, 0, MONTH_MARK, DAY_MARK]);
    expect(() => scale.fillWeightsForPoints([], 0)).not.toThrow();
  });

  it('labels ticks in Persian: year, month name, day, time', () => {
    expect(tickLabel(AZAR_1, MONTH_MARK)).toBe('آذر');
    expect(tickLabel(AZAR_1 + 11 * DAY, DAY_MARK)).toBe('۱۲');
    expect(tickLabel(AZAR_1 + 14 * 3600 + 5 * 60, HOUR_MARK)).toBe('۱۴:۰۵');
    expect(tickLabel(DEC_1_TEHRAN, DAY_MARK)).toBe('۱۰');
  });

  it('labels the first point with its whole date, never a lone day number or time at the left end', () => {
    const scale = new JalaliTimeScale();
    const mark = (index: number, time: number, weight: number) =>
      ({ index, time, weight, originalTime: time }) as unknown as Parameters<JalaliTimeScale['formatTickmark']>[0];
    expect(scale.formatTickmark(mark(0, AZAR_1 + 4 * DAY, DAY_MARK))).toBe('\u200f۵ آذر ۱۴۰۵');
    expect(scale.formatTickmark(mark(0, AZAR_1 + 4 * DAY + 12 * 3600, HOUR12_MARK))).toBe('\u200f۵ آذر ۱۴۰۵');
    expect(scale.formatTickmark(mark(1, AZAR_1, MONTH_MARK))).toBe('آذر');
    expect(scale.formatTickmark(mark(3, AZAR_1 + 4 * DAY, DAY_MARK))).toBe('۵');
  });

  it('labels the crosshair time with the Jalali date, and the time for intraday data', () => {
    const scale = new JalaliTimeScale();
    expect(scale.label(AZAR_1 + 9 * 3600)).toBe('۱ آذر ۱۴۰۵ ۰۹:۰۰');
    // On the canvas (LTR) the label is one right-to-left run.
    expect(scale.formatHorzItem(scale.convertHorzItemToInternal(AZAR_1))).toBe('\u200f۱ آذر ۱۴۰۵ ۰۰:۰۰');
    scale.fillWeightsForPoints(pointsAt([AZAR_1, AZAR_1 + DAY, AZAR_1 + 2 * DAY]), 0);
    expect(scale.label(AZAR_1)).toBe('۱ آذر ۱۴۰۵');
  });

  it('names times of day on the 1-day axis only: a 7- or 30-day axis of intraday candles leaves their marks unlabelled', () => {
    const mark = (index: number, time: number, weight: number) =>
      ({ index, time, weight, originalTime: time }) as unknown as Parameters<JalaliTimeScale['formatTickmark']>[0];
    const noon = AZAR_1 + 3 * DAY + 12 * 3600;
    for (const [count, step, times] of [
      [24, 3_600, true], // today (1 day)
      [168, 3_600, false], // 7 days, hourly
      [180, 14_400, false], // 30 days, 4-hourly
      [365, DAY, false],
    ] as const) {
      const scale = new JalaliTimeScale();
      scale.fillWeightsForPoints(pointsAt(candles(noon - (count - 1) * step, count, step).map((c) => c.time)), 0);
      for (const weight of [HOUR12_MARK, HOUR_MARK])
        expect(scale.formatTickmark(mark(5, noon, weight)), `${count} × ${step}s`).toBe(times ? '۱۲:۰۰' : '');
      expect(scale.formatTickmark(mark(5, noon, DAY_MARK))).toBe('۴');
    }
  });

  it("shows the time of today's lone first candle, and none for a lone daily one", () => {
    const scale = new JalaliTimeScale();
    // Today's chart right after a quiet night: one 5-minute candle at 14:05 Tehran.
    scale.fillWeightsForPoints(pointsAt([AZAR_1 + 14 * 3600 + 5 * 60]), 0);
    expect(scale.label(AZAR_1 + 14 * 3600 + 5 * 60)).toBe('۱ آذر ۱۴۰۵ ۱۴:۰۵');
    scale.fillWeightsForPoints(pointsAt([AZAR_1]), 0);
    expect(scale.label(AZAR_1)).toBe('۱ آذر ۱۴۰۵');
  });
});

describe('createPriceChart', () => {
  it('draws a canvas inside an LTR wrapper, leaving the container RTL', async () => {
    const { chart, container } = mount();
    chart.setData(candles(AZAR_1 - 11 * DAY, 30));
    const canvas = await painted(container);
    expect(canvas.getBoundingClientRect().width).toBeGreaterThan(0);
    expect(container.dir).toBe('rtl');
    expect(container.firstElementChild?.getAttribute('dir')).toBe('ltr');
  });

  it('attributes TradingView with a visible text link above the time axis, without inline <style>', async () => {
    const { chart, container, internals } = mount();
    chart.setData(candles(AZAR_1, 10));
    await painted(container);
    const link = container.querySelector<HTMLAnchorElement>('a[href^="https://www.tradingview.com/"]')!;
    expect(link.textContent).toBe('TradingView');
    expect(link.rel).toBe('noopener');
    expect(container.querySelector('style, #tv-attr-logo')).toBeNull();
    const axis = internals().chart.timeScale().height();
    expect(axis).toBeGreaterThan(0);
    await vi.waitFor(() => {
      const rect = link.getBoundingClientRect();
      expect(rect.width).toBeGreaterThan(0);
      expect(rect.bottom).toBeLessThanOrEqual(container.getBoundingClientRect().bottom - axis);
    });
  });

  it('renders Persian time-axis labels with the Jalali month on 1 Azar', async () => {
    const format = vi.spyOn(JalaliTimeScale.prototype, 'formatTickmark');
    const { chart, container } = mount();
    chart.setData(candles(AZAR_1 - 11 * DAY, 30));
    await painted(container);
    await vi.waitFor(() => expect(format).toHaveBeenCalled());
    const labels = format.mock.results.map((r) => r.value as string);
    expect(labels).toContain('آذر');
    for (const label of labels) expect(label).not.toMatch(LATIN_DIGIT);
    const monthTicks = format.mock.calls.filter(([mark]) => mark.index > 0 && mark.weight >= MONTH_MARK);
    expect(monthTicks.map(([mark]) => mark.time)).toEqual([AZAR_1]);
  });

  it('draws every time-axis label whole, at any width a board has', async () => {
    const restore = recordAxisLabels();
    try {
      const spans: Array<[number, number]> = [
        [168, 3_600],
        [180, 14_400],
        [365, DAY],
      ]; // 7, 30 and 365 days
      for (const width of [300, 360, 420, 540, 720, 900]) {
        for (const [count, step] of spans) {
          axisLabels().length = 0;
          const { chart, container } = mount('candles', formatPrice, width);
          chart.setData(candles(AZAR_1 - count * step, count, step));
          await painted(container);
          await vi.waitFor(() => expect(axisLabels().length).toBeGreaterThan(1));
          expect({ width, count, cut: cutLabels(axisLabels()) }).toEqual({ width, count, cut: [] });
          chart.destroy();
        }
      }
    } finally {
      restore();
    }
  });

  it('draws no time of day on the 7-, 30- and 365-day axes at any width, and times on the 1-day axis', async () => {
    const restore = recordAxisLabels();
    try {
      const spans: Array<[number, number, boolean]> = [
        [144, 300, true], // 1 day: 12 hours of 5-minute candles
        [168, 3_600, false],
        [180, 14_400, false],
        [365, DAY, false],
      ];
      for (const width of [300, 640, 900, 1280]) {
        for (const [count, step, times] of spans) {
          axisLabels().length = 0;
          const { chart, container } = mount('candles', formatPrice, width);
          chart.setData(candles(AZAR_1 + 8 * 3600 - count * step, count, step));
          await painted(container);
          await vi.waitFor(() => expect(axisLabels().length).toBeGreaterThan(1));
          const clock = axisLabels()
            .filter((l) => l.text.includes(':'))
            .map((l) => l.text);
          if (times && width >= 640) expect(clock.length, `${width}px, 1 day`).toBeGreaterThan(0);
          if (!times) expect({ width, count, clock }).toEqual({ width, count, clock: [] });
          chart.destroy();
        }
      }
    } finally {
      restore();
    }
  });

  it("hides lightweight-charts' layout table from screen readers", async () => {
    const { chart, container } = mount();
    chart.setData(candles(AZAR_1, 30));
    await painted(container);
    const table = container.querySelector('table')!;
    expect(table.closest('[aria-hidden="true"]')).not.toBeNull();
    // the attribution link stays reachable
    expect(container.querySelector('a')?.closest('[aria-hidden="true"]')).toBeNull();
  });

  it('redraws in the web font once it has loaded, and stops listening when destroyed', async () => {
    const { chart, container, internals } = mount();
    chart.setData(candles(AZAR_1, 10));
    await painted(container);
    const apply = vi.spyOn(internals().chart, 'applyOptions');
    document.fonts.dispatchEvent(new Event('loadingdone'));
    expect(apply).toHaveBeenCalledWith({ layout: { fontFamily: expect.any(String) } });
    chart.destroy();
    apply.mockClear();
    document.fonts.dispatchEvent(new Event('loadingdone'));
    expect(apply).not.toHaveBeenCalled();
  });

  it('labels the price axis with the given Persian formatter, and switches it live', async () => {
    const first = vi.fn(formatPrice);
    const { chart, container, internals } = mount('candles', first);
    chart.setData(candles(AZAR_1, 10));
    await painted(container);
    expect(internals().chart.options().localization.priceFormatter).toBe(first);
    await vi.waitFor(() => expect(first).toHaveBeenCalled());
    for (const r of first.mock.results) expect(r.value).not.toMatch(LATIN_DIGIT);

    const second = vi.fn((v: number): string => `${formatAxisNumber(v, 2)} ت`);
    chart.setPriceFormatter(second);
    expect(internals().chart.options().localization.priceFormatter).toBe(second);
    await vi.waitFor(() => expect(second).toHaveBeenCalled());
    // The legend speaks the new formatter too (of the last candle, or of the one under the pointer
    // when an earlier test file left the page's pointer over where this chart is mounted).
    expect(internals().legend.textContent).toMatch(/پایانی ۱۰[۵۶]٬[۰-۹]۰۰٫۰۰ ت/);
  });

  it('follows live candles with series.update, never setData', () => {
    const { chart, internals } = mount();
    const data = candles(AZAR_1, 5);
    chart.setData(data);
    const { series } = internals();
    const setData = vi.spyOn(series, 'setData');
    const update = vi.spyOn(series, 'update');
    const last = data[4]!;
    chart.update({ ...last, close: 120_000, high: 121_000 });
    chart.update({ time: last.time + DAY, open: 120_000, high: 120_000, low: 119_000, close: 119_500 });
    chart.update({ ...data[0]!, close: 1 }); // older than the last candle: ignored
    expect(setData).not.toHaveBeenCalled();
    expect(update).toHaveBeenCalledTimes(2);
    expect(series.data()).toHaveLength(6);
    expect(chart.describeLast()).toContain('پایانی ۱۱۹٬۵۰۰');
  });

  it('replaces everything on setData', () => {
    const { chart, internals } = mount();
    chart.setData(candles(AZAR_1, 5));
    chart.setData(candles(AZAR_1 - 30 * DAY, 3));
    expect(internals().series.data()).toHaveLength(3);
  });

  it('switches between candles and a line of closes in place', async () => {
    const { chart, container, internals } = mount();
    const data = candles(AZAR_1, 8);
    chart.setData(data);
    await painted(container);
    const api = internals().chart;
    const canvas = container.querySelector('canvas');
    chart.setType('line');
    expect(internals().chart).toBe(api);
    expect(container.querySelector('canvas')).toBe(canvas);
    // One series over the same candles, drawing their closes in the accent colour (see below).
    const line = internals().series;
    expect(api.panes()[0]!.getSeries()).toEqual([line]);
    expect(line.options().color).toBe(light.accent);
    expect(line.data().map((p) => ('close' in p ? p.close : undefined))).toEqual(data.map((c) => c.close));
    chart.update({ ...data[7]!, close: 110_000 });
    expect(line.data().at(-1)).toMatchObject({ close: 110_000 });
    chart.setType('candles');
    expect(internals().series.options().color).toBe(light.up); // the last candle's, for its price label
    expect(internals().series.data()).toHaveLength(8);
  });

  it('draws candles with their wicks in the up and down colours, and labels the last price in its colour', async () => {
    const { chart, container, internals } = mount();
    // Alternately up and down (open 105,000 + 100 i, close 500 above or below it).
    const data = candles(AZAR_1 - 11 * DAY, 30).map((c, i) => (i % 2 ? { ...c, close: c.open - 500 } : c));
    chart.setData(data);
    await painted(container);
    const { chart: api, series } = internals();
    const main = api.panes()[0]!.getHTMLElement()!.querySelector('canvas')!;
    const ratio = main.width / main.getBoundingClientRect().width;
    const at = (x: number, y: number) =>
      [...main.getContext('2d')!.getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data]
        .slice(0, 3)
        .join();
    const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join();
    for (const [i, c] of data.entries()) {
      const x = api.timeScale().timeToCoordinate(c.time)!;
      const colour = rgb(i % 2 ? light.down : light.up);
      expect(at(x, series.priceToCoordinate((c.open + c.close) / 2)!)).toBe(colour); // body
      expect(at(x, series.priceToCoordinate(c.high - 200)!)).toBe(colour); // wick, above the body
      expect(at(x, series.priceToCoordinate(c.low + 200)!)).toBe(colour); // wick, below
    }
    expect(series.options().color).toBe(light.down); // the last candle is down
    chart.update({ ...data[29]!, close: data[29]!.open + 10 });
    expect(series.options().color).toBe(light.up);
  });

  it('draws the line of closes in the accent colour, with a dot where the crosshair meets it', async () => {
    const { chart, container, internals } = mount('line');
    const data = candles(AZAR_1 - 11 * DAY, 30);
    chart.setData(data);
    await painted(container);
    const { chart: api, series } = internals();
    const pane = api.panes()[0]!.getHTMLElement()!;
    const [main, top] = [...pane.querySelectorAll('canvas')];
    /** The colours around (x, y), CSS px, one pixel each way (lines are antialiased). */
    const around = (canvas: HTMLCanvasElement, x: number, y: number): string[] => {
      const ratio = canvas.width / canvas.getBoundingClientRect().width;
      const { data: rgba } = canvas
        .getContext('2d')!
        .getImageData(Math.round(x * ratio) - 1, Math.round(y * ratio) - 1, 3, 3);
      return Array.from({ length: 9 }, (_, i) => rgba.slice(i * 4, i * 4 + 4).join());
    };
    const pixel = (canvas: HTMLCanvasElement, x: number, y: number) => around(canvas, x, y)[4];
    const accent = '21,101,192,255';
    // At each candle's close the line is drawn in the accent colour.
    for (const c of [data[3]!, data[15]!, data[28]!]) {
      const x = api.timeScale().timeToCoordinate(c.time)!;
      expect(around(main!, x, series.priceToCoordinate(c.close)!)).toContain(accent);
    }
    // Nothing in the candles' colours.
    const { data: all } = main!.getContext('2d')!.getImageData(0, 0, main!.width, main!.height);
    let candleColoured = 0;
    for (let i = 0; i < all.length; i += 4)
      if (all[i] === 0xc6 && all[i + 1] === 0x28 && all[i + 2] === 0x28) candleColoured++;
    expect(candleColoured).toBe(0);

    const hovered = data[11]!;
    const x = api.timeScale().timeToCoordinate(hovered.time)!;
    const y = series.priceToCoordinate(hovered.close)!;
    expect(pixel(top!, x, y)).toBe('0,0,0,0'); // no dot before the pointer comes
    await userEvent.hover(pane, { position: { x, y: 100 } });
    await vi.waitFor(() => expect(pixel(top!, x, y)).toBe(accent));
    // ringed in the background colour, 5 px out (radius 4, ring 2)
    expect(around(top!, x, y - 5)).toContain('255,255,255,255');
    await userEvent.unhover(pane);
    await vi.waitFor(() => expect(pixel(top!, x, y)).toBe('0,0,0,0'));
  });

  it('applies a theme live', () => {
    const { chart, internals } = mount();
    chart.setData(candles(AZAR_1, 3));
    chart.setTheme(dark);
    const { chart: api, series, legend } = internals();
    expect(api.options().layout.background).toMatchObject({ color: dark.background });
    expect(api.options().layout.textColor).toBe(dark.text);
    expect(series.options()).toMatchObject({ upColor: dark.up, downColor: dark.down });
    expect(legend.style.color).toBe('rgb(238, 238, 238)');
  });

  it('shows the hovered candle in the legend, and the last one otherwise', async () => {
    const { chart, container, internals } = mount();
    const data = candles(AZAR_1 - 11 * DAY, 30);
    chart.setData(data);
    await painted(container);
    const { chart: api, legend } = internals();
    expect(legend.textContent).toContain('۱۹ آذر ۱۴۰۵'); // last candle: 10 Dec 2026
    expect(legend.textContent).toContain('پایانی ۱۰۸٬۴۰۰');

    const hovered = data[11]!; // 1 Azar
    const x = api.timeScale().timeToCoordinate(hovered.time)!;
    const pane = api.panes()[0]!.getHTMLElement()!;
    await userEvent.hover(pane, { position: { x, y: 100 } });
    await vi.waitFor(() => expect(legend.textContent).toContain('۱ آذر ۱۴۰۵'));
    const spans = [...legend.children].map((s) => s.textContent);
    expect(spans).toEqual(['۱ آذر ۱۴۰۵', 'باز ۱۰۶٬۱۰۰', 'بیشترین ۱۰۷٬۱۰۰', 'کمترین ۱۰۵٬۱۰۰', 'پایانی ۱۰۶٬۶۰۰']);
    expect(legend.innerHTML).not.toContain('<b');

    await userEvent.unhover(pane);
    await vi.waitFor(() => expect(legend.textContent).toContain('۱۹ آذر ۱۴۰۵'));
  });

  it('describes the last candle in Persian', () => {
    const { chart } = mount();
    expect(chart.describeLast()).toBe('نمودار هنوز داده‌ای ندارد');
    chart.setData([{ time: AZAR_1, open: 105_000, high: 106_000, low: 104_000, close: 105_500 }]);
    expect(chart.describeLast()).toBe(
      'آخرین شمع ۱ آذر ۱۴۰۵: باز ۱۰۵٬۰۰۰، بیشترین ۱۰۶٬۰۰۰، کمترین ۱۰۴٬۰۰۰، پایانی ۱۰۵٬۵۰۰',
    );
    expect(chart.describeLast()).not.toMatch(LATIN_DIGIT);
  });

  it('removes the canvas and its listeners on destroy', async () => {
    const { chart, container, internals } = mount();
    chart.setData(candles(AZAR_1, 3));
    await painted(container);
    const { chart: api } = internals();
    const unsubscribe = vi.spyOn(api, 'unsubscribeCrosshairMove');
    chart.destroy();
    expect(unsubscribe).toHaveBeenCalled();
    expect(container.querySelector('canvas')).toBeNull();
    expect(container.childElementCount).toBe(0);
    chart.destroy();
    chart.update(candles(AZAR_1 + DAY, 1)[0]!);
    chart.setTheme(dark);
  });
});
