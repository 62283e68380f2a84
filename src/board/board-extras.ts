/**
 * What the board loads beside its first prices request, out of the initial module: the chart
 * area's controller, the chart section's template and styles, the styles of statuses, errors,
 * selection and focus (`board-extras.styles.ts`), the status line's text (but while loading),
 * the flash of a changed price, the announcer of price changes, the clock that turns rows stale,
 * the date formatting of the time cells, and the selection of rows by click and keys
 * (`row-selection.ts`). The first rows need none of it, and never wait for it.
 */
import { adoptStyles, supportsAdoptingStyleSheets, type LitElement } from 'lit';
import type { Quote } from '../shared/types';
import { Announcer } from './announcer';
import { extraStyles } from './board-extras.styles';
import { ChartController } from './chart-controller';
import { chartStyles } from './chart-section.styles';
import { Clock } from './clock';
import { emit } from './emit';
import { flashStyles } from './flash.styles';
import { RowSelection, type SelectionHost } from './row-selection';

export { renderChart } from './chart-section';
export { datesReady, prepareDates } from './dates';
export { statusText } from './status-text';

/** The extras a board holds once they are attached. */
export interface BoardExtras {
  chartArea: ChartController;
  announcer: Announcer;
  rows: RowSelection;
}

/**
 * Gives `board` its extras: the chart area (whose quotes come from `latest`, whose failures it
 * fires as `price-board-error`), the announcer, the row selection, the clock, and their styles
 * beside its own.
 */
export function attachExtras(board: LitElement & SelectionHost, latest: (symbol: string) => Quote | undefined): BoardExtras {
  const find = (selector: string) => board.renderRoot?.querySelector<HTMLElement>(selector);
  new Clock(board);
  // Without adopted style sheets Lit appends a <style> per sheet: only the new ones then.
  const extra = [extraStyles, flashStyles, chartStyles];
  const own = (board.constructor as typeof LitElement).elementStyles;
  adoptStyles(board.renderRoot as ShadowRoot, supportsAdoptingStyleSheets ? [...own, ...extra] : extra);
  return {
    chartArea: new ChartController(board, {
      container: () => find('.chart-canvas'),
      themeSource: () => find('.board'),
      latest,
      onError: (error) => emit(board, 'price-board-error', error.toDetail()),
    }),
    announcer: new Announcer(board),
    rows: new RowSelection(board),
  };
}
