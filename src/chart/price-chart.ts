/**
 * The chart chunk (loaded lazily by the board): lightweight-charts with a Jalali time axis, Persian
 * price labels, a crosshair legend and live theme/type switching.
 *
 * Attribution: lightweight-charts' licence asks for TradingView attribution. The built-in logo is
 * off (it needs an inline `<style>`, see attribution.ts); a visible "TradingView" text link sits in
 * its corner instead.
 */
import { createChartEx } from 'lightweight-charts';
import type { ChartOptionsImpl, DeepPartial, MouseEventParams, TickMark } from 'lightweight-charts';
import type { Candle } from '../shared/types';
import { createAttribution } from './attribution';
import { JalaliTimeScale } from './jalali-scale';
import { createLegend, describeCandle } from './legend';
import { PriceSeries } from './price-series';
import type { ChartTheme, PriceChart, PriceChartOptions } from './types';

export type { ChartTheme, ChartType, PriceChart, PriceChartInternals, PriceChartOptions } from './types';

function chartStyle(theme: ChartTheme): DeepPartial<ChartOptionsImpl<number>> {
  const line = { color: theme.border };
  const cross = { color: theme.muted, labelBackgroundColor: theme.muted };
  return {
    // (a solid background by default)
    layout: {
      background: { color: theme.background },
      textColor: theme.text,
      fontFamily: theme.font,
      attributionLogo: false,
    },
    grid: { vertLines: line, horzLines: line },
    rightPriceScale: { borderColor: theme.border },
    timeScale: { borderColor: theme.border },
    crosshair: { vertLine: cross, horzLine: cross },
  };
}

/** Creates a chart filling `options.container`; see {@link PriceChart}. */
export function createPriceChart(options: PriceChartOptions): PriceChart {
  let { theme, formatPrice } = options;
  let data: Candle[] = [];
  let hovered: Candle | undefined;
  let alive = true;

  // lightweight-charts draws left to right; the board around it stays RTL. The legend is a line of
  // its own above the plot (never over the candles), and the chart fills the rest.
  // (their boxes: chart-section.styles.ts)
  const root = document.createElement('div');
  root.dir = 'ltr';
  root.className = 'chart-root';
  options.container.append(root);
  const legend = createLegend(root);
  const plot = document.createElement('div');
  plot.className = 'chart-plot';
  root.append(plot);

  const scale = new JalaliTimeScale();
  const chart = createChartEx<number, JalaliTimeScale>(plot, scale, {
    ...chartStyle(theme),
    autoSize: true,
    localization: { locale: 'fa-IR', priceFormatter: formatPrice },
    rightPriceScale: { borderColor: theme.border, minimumWidth: 72 },
    // The history is all there is: the chart cannot scroll past its ends, which is also what
    // makes lightweight-charts move the labels at the ends inside the axis rather than cut them.
    timeScale: { fixLeftEdge: true, fixRightEdge: true },
    // Embedded in someone's page: the wheel and vertical swipes scroll the page, not the chart.
    handleScroll: { mouseWheel: false, vertTouchDrag: false },
    handleScale: { mouseWheel: false },
  });
  // lightweight-charts lays its canvases out in a <table>: an empty 2 × 3 grid to a screen reader,
  // which reads the figure's caption instead (chart-section.ts).
  plot.querySelector('table')?.setAttribute('aria-hidden', 'true');
  const attribution = createAttribution(root);
  let width = 0;
  // Keep the link just above the time axis, whatever its height. When the width changes (a phone
  // rotates, a sidebar narrows) the candles are fitted again: the last one stays in view.
  const onAxisSize = (newWidth: number, height: number): void => {
    attribution.style.bottom = `${height + 6}px`;
    if (newWidth !== width && data.length) chart.timeScale().fitContent();
    width = newWidth;
  };
  chart.timeScale().subscribeSizeChange(onAxisSize);
  const view = new PriceSeries();
  view.mode = options.type;
  const series = chart.addCustomSeries(view);
  series.attachPrimitive(view.dot);
  styleOverlays();
  colour();

  /**
   * lightweight-charts spaces the time axis's labels by an estimate, 10 px a character at its 12 px
   * font, 8 characters by default; but the first label is a whole date drawn from the axis's left
   * edge (the widest), so the next one must start past it: room for it and half of another as
   * wide, measured in the chart's font (a page without Vazirmatn draws wider fallback glyphs).
   */
  function spaceLabels(): void {
    const first = data[0];
    const context = document.createElement('canvas').getContext('2d');
    if (!first || !context) return;
    context.font = `12px ${theme.font}`;
    const { width } = context.measureText(scale.formatTickmark({ index: 0, time: first.time } as unknown as TickMark));
    chart.applyOptions({ timeScale: { tickMarkMaxCharacterLength: Math.ceil(width * 0.15 + 1) } });
  }

  function styleOverlays(): void {
    legend.setTheme(theme);
    Object.assign(attribution.style, { color: theme.text, fontFamily: theme.font });
    view.ring = theme.background;
  }

  /** The series' colours; its price line and label take the line's, or the last candle's. */
  function colour(): void {
    const last = data[data.length - 1];
    const down = view.mode === 'candles' && last && last.close < last.open;
    series.applyOptions({
      upColor: theme.up,
      downColor: theme.down,
      color: view.mode === 'line' ? theme.accent : down ? theme.down : theme.up,
    });
  }

  function showLegend(): void {
    const candle = hovered ?? data[data.length - 1];
    legend.show(candle, candle ? scale.label(candle.time) : '', formatPrice);
  }

  const onCrosshairMove = (param: MouseEventParams<number>): void => {
    hovered = view.hovered = param.seriesData.get(series) as Candle | undefined;
    showLegend();
  };
  chart.subscribeCrosshairMove(onCrosshairMove);

  // Canvas text uses whatever font is loaded at draw time: when a web font (Vazirmatn on the
  // embed page) arrives after the first draw, apply the font again so the axes are redrawn in it.
  const fonts = globalThis.document?.fonts;
  const onFontsLoaded = (): void => {
    if (!alive) return;
    chart.applyOptions({ layout: { fontFamily: theme.font } });
    spaceLabels();
  };
  fonts?.addEventListener('loadingdone', onFontsLoaded);

  return {
    setData(candles) {
      if (!alive) return;
      data = candles.slice();
      hovered = view.hovered = undefined;
      series.setData(data);
      spaceLabels();
      chart.timeScale().fitContent();
      colour();
      showLegend();
    },
    update(candle) {
      const last = data[data.length - 1];
      if (!alive || (last && candle.time < last.time)) return;
      if (last && candle.time === last.time) data[data.length - 1] = candle;
      else data.push(candle);
      series.update(candle);
      if (hovered?.time === candle.time) hovered = view.hovered = candle;
      colour();
      showLegend();
    },
    setType(next) {
      if (!alive || next === view.mode) return;
      view.mode = next;
      // The same series, drawn the other way; its price range is the candles' or the closes'.
      series.setData(data);
      colour();
    },
    setTheme(next) {
      if (!alive) return;
      theme = next;
      chart.applyOptions(chartStyle(theme));
      colour();
      styleOverlays();
    },
    setPriceFormatter(fn) {
      if (!alive) return;
      formatPrice = fn;
      chart.applyOptions({ localization: { priceFormatter: fn } });
      showLegend();
    },
    describeLast() {
      const last = data[data.length - 1];
      if (!last) return 'نمودار هنوز داده‌ای ندارد';
      return describeCandle(last, scale.label(last.time), formatPrice);
    },
    destroy() {
      if (!alive) return;
      alive = false;
      fonts?.removeEventListener('loadingdone', onFontsLoaded);
      chart.unsubscribeCrosshairMove(onCrosshairMove);
      chart.timeScale().unsubscribeSizeChange(onAxisSize);
      chart.remove();
      root.remove();
    },
    inspect: () => ({ chart, series, scale, legend: legend.element }),
  };
}
