/**
 * The chart's axis and legend numbers: apart from `number.ts`, which every board loads, so that it
 * loads with the chart's code only.
 */
import { numberFormat } from './intl-cache';

/**
 * A chart-axis number: Persian digits and grouping with exactly `fractionDigits` fraction digits,
 * so labels keep a stable width, or up to `maxFractionDigits` where a fraction shows only when
 * there is one (toman: a tenth of a rial). A float is fine here (drawing only). Non-finite → `""`.
 */
export function formatAxisNumber(n: number, fractionDigits: number, maxFractionDigits = fractionDigits): string {
  if (!Number.isFinite(n)) return '';
  // 'negative': no sign on zero, including a -0.001 rounded to "0.00".
  return numberFormat('fa-IR', {
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: maxFractionDigits,
    signDisplay: 'negative',
  }).format(n);
}
