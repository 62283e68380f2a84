/**
 * What the board loads beside its first prices request, out of the initial module: the chart
 * area's controller, the chart section's template and styles, the styles of statuses, errors,
 * selection and focus (`board-extras.styles.ts`), the status line's text (but while loading),
 * the flash of a changed price, the announcer of price changes, the clock that turns rows stale,
 * the date formatting of the time cells, and the selection of rows by click and keys
 * (`row-selection.ts`). The first rows need none of it, and never wait for it.
 */
import { adoptStyles, supportsAdoptingStyleSheets, type CSSResultOrNative } from 'lit';
import { extraStyles } from './board-extras.styles';
import { chartStyles } from './chart-section.styles';
import { flashStyles } from './flash.styles';

export { Announcer } from './announcer';
export { ChartController } from './chart-controller';
export { renderChart } from './chart-section';
export { Clock } from './clock';
export { datesReady, prepareDates } from './dates';
export { RowSelection } from './row-selection';
export { statusText } from './status-text';

/** Adds the extra styles, the flash's and the chart section's to the board's own (`own`) in its shadow root. */
export function adoptExtraStyles(root: ShadowRoot, own: readonly CSSResultOrNative[]): void {
  // Without adopted style sheets Lit appends a <style> per sheet: only the new ones then.
  const extra = [extraStyles, flashStyles, chartStyles];
  adoptStyles(root, supportsAdoptingStyleSheets ? [...own, ...extra] : extra);
}
