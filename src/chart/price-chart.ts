/**
 * The chart chunk (loaded lazily by the board): lightweight-charts with a Jalali time axis, Persian
 * price labels, a crosshair legend and live theme/type switching.
 *
 * Attribution: lightweight-charts' licence asks for TradingView attribution. The built-in logo is
 * off (it needs an inline `<style>`, see attribution.ts); a visible "TradingView" text link sits in
 * its corner instead.
 */
import { CandlestickSeries, ColorType, createChartEx } from 'lightweight-charts';
import type { ChartOptionsImpl, DeepPartial, ISeriesApi, MouseEventParams } from 'lightweight-charts';
import type { Candle } from '../shared/types';
import { createAttribution } from './attribution';
import { CloseLine } from './close-line';
import { JalaliTimeScale } from './jalali-scale';
import { createLegend, describeCandle } from './legend';
import type { ChartTheme, ChartType, PriceChart, PriceChartOptions } from './types';

export type { ChartTheme, ChartType, PriceChart, PriceChartInternals, PriceChartOptions } from './types';

type Series = ISeriesApi<'Candlestick' | 'Custom', number>;

function chartStyle(theme: ChartTheme): DeepPartial<ChartOptionsImpl<number>> {
  const line = { color: theme.border };
  const cross = { color: theme.muted, labelBackgroundColor: theme.muted };
  return {
    layout: {
      background: { type: ColorType.Solid, color: theme.background },
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

function seriesStyle(type: ChartType, t: ChartTheme) {
  return type === 'candles'
    ? {
        upColor: t.up,
        downColor: t.down,
        borderUpColor: t.up,
        borderDownColor: t.down,
        wickUpColor: t.up,
        wickDownColor: t.down,
      }
    : { color: t.accent };
}

/** Creates a chart filling `options.container`; see {@link PriceChart}. */
export function createPriceChart(options: PriceChartOptions): PriceChart {
  let { type, theme, formatPrice } = options;
  let data: Candle[] = [];
  let hovered: Candle | undefined;
  let alive = true;

  // lightweight-charts draws left to right; the board around it stays RTL.
  const root = document.createElement('div');
  root.dir = 'ltr';
  Object.assign(root.style, { position: 'relative', width: '100%', height: '100%' });
  options.container.append(root);

  const scale = new JalaliTimeScale();
  const chart = createChartEx<number, JalaliTimeScale>(root, scale, {
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
  const legend = createLegend(root);
  const attribution = createAttribution(root);
  // Keep the link just above the time axis, whatever its height.
  const onAxisSize = (_width: number, height: number): void => {
    attribution.style.bottom = `${height + 6}px`;
  };
  chart.timeScale().subscribeSizeChange(onAxisSize);
  // Both modes hold the same candles: the line draws their closes.
  const line = new CloseLine();
  let series = addSeries();
  styleOverlays();

  function styleOverlays(): void {
    legend.setTheme(theme);
    Object.assign(attribution.style, { color: theme.text, fontFamily: theme.font });
    line.ring = theme.background;
  }

  function addSeries(): Series {
    if (type === 'candles') return chart.addSeries(CandlestickSeries, seriesStyle(type, theme));
    const added = chart.addCustomSeries(line, seriesStyle(type, theme));
    added.attachPrimitive(line.dot);
    return added;
  }

  function showLegend(): void {
    const candle = hovered ?? data[data.length - 1];
    legend.show(candle, candle ? scale.label(candle.time) : '', formatPrice);
  }

  const onCrosshairMove = (param: MouseEventParams<number>): void => {
    hovered = line.hovered = param.seriesData.get(series) as Candle | undefined;
    showLegend();
  };
  chart.subscribeCrosshairMove(onCrosshairMove);

  // Canvas text uses whatever font is loaded at draw time: when a web font (Vazirmatn on the
  // embed page) arrives after the first draw, apply the font again so the axes are redrawn in it.
  const fonts = globalThis.document?.fonts;
  const onFontsLoaded = (): void => {
    if (alive) chart.applyOptions({ layout: { fontFamily: theme.font } });
  };
  fonts?.addEventListener('loadingdone', onFontsLoaded);

  return {
    setData(candles) {
      if (!alive) return;
      data = candles.slice();
      hovered = undefined;
      series.setData(data);
      chart.timeScale().fitContent();
      showLegend();
    },
    update(candle) {
      const last = data[data.length - 1];
      if (!alive || (last && candle.time < last.time)) return;
      if (last && candle.time === last.time) data[data.length - 1] = candle;
      else data.push(candle);
      series.update(candle);
      if (hovered?.time === candle.time) hovered = line.hovered = candle;
      showLegend();
    },
    setType(next) {
      if (!alive || next === type) return;
      type = next;
      // Add the new series before removing the old one, so the time scale keeps its range.
      const old = series;
      series = addSeries();
      series.setData(data);
      chart.removeSeries(old);
    },
    setTheme(next) {
      if (!alive) return;
      theme = next;
      chart.applyOptions(chartStyle(theme));
      series.applyOptions(seriesStyle(type, theme));
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
