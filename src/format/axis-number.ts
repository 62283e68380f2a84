/**
 * The chart's axis and legend numbers: apart from `number.ts`, which every board loads, so that it
 * loads with the chart's code only.
 */
import { numberFormat } from './intl-cache';

/**
 * A chart-axis number: Persian digits and grouping with exactly `fractionDigits` fraction digits,
 * so labels keep a stable width. A float is fine here (drawing only). Non-finite → `""`.
 */
export function formatAxisNumber(n: number, fractionDigits: number): string {
  if (!Number.isFinite(n)) return '';
  const digits = Math.max(0, Math.min(20, Math.trunc(fractionDigits) || 0));
  // 'negative': no sign on zero, including a -0.001 rounded to "0.00".
  return numberFormat('fa-IR', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    signDisplay: 'negative',
  }).format(n);
}
