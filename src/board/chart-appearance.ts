/**
 * How the board's chart looks in the board's terms: its price labels in the board's unit, its
 * colours from the board's custom properties, and the note shown when the plan gives a shorter span.
 */
import type { ChartTheme } from '../chart/types';
import { formatAxisNumber } from '../format/axis-number';
import { toPersianDigits } from '../format/number';
import type { HistoryDays } from '../shared/attribute-table';
import { DOLLAR_SYMBOLS, type DisplayUnit } from '../shared/types';

/**
 * The chart keeps the service's unit (rials, or dollars) and shows the board's: toman is a tenth
 * of a rial, as on the board, so a change of unit changes only the labels; a toman price shows
 * its tenth as the row does (1,357,913 rials: ۱۳۵٬۷۹۱٫۳, not ۱۳۵٬۷۹۱).
 */
export function chartPriceFormatter(s: { symbol: string; unit: DisplayUnit } | undefined): (v: number) => string {
  const dollar = DOLLAR_SYMBOLS.has(s?.symbol ?? '');
  const divisor = !dollar && s?.unit === 'toman' ? 10 : 1;
  // a toman price to its tenth (a rial), others whole, dollars to the cent
  return (v) => formatAxisNumber(v / divisor, dollar ? 2 : 0, dollar ? 2 : divisor === 10 ? 1 : 0);
}

/** Colours from the computed custom properties of `source`, so page overrides and the theme both apply. */
export function readChartTheme(source: Element | null | undefined): ChartTheme {
  const style = source ? getComputedStyle(source) : undefined;
  const read = (name: string, fallback: string) => style?.getPropertyValue(name).trim() || fallback;
  return {
    background: read('--_bg', '#ffffff'),
    text: read('--_fg', '#1b1f24'),
    muted: read('--_muted', '#59616e'),
    border: read('--_border', '#d5dae1'),
    up: read('--_up', '#0a7a3d'),
    down: read('--_down', '#c0262d'),
    accent: read('--_accent', '#1d5fc4'),
    font: read('--_font', 'Vazirmatn, Tahoma, sans-serif'),
  };
}

/** The note beside a chart whose span is shorter than the one asked for. */
export function spanNote(wanted: HistoryDays, shown: HistoryDays): string {
  if (wanted === 1)
    return `نمودار امروز از این سرویس در دسترس نیست؛ نمودار ${toPersianDigits(String(shown))} روز اخیر را نشان می‌دهد.`;
  return `طرح این کلید تاریخچهٔ ${toPersianDigits(String(wanted))} روزه را نمی‌دهد؛ نمودار ${toPersianDigits(String(shown))} روز اخیر را نشان می‌دهد.`;
}
