/**
 * What the board loads once its first render (the rows, or their skeleton) is painted, out of the
 * initial module (the first rows need none of it, and never wait for it), by what each part does:
 *
 * - the chart's holder (`board-chart.ts`), which loads the chart area's chunk when a chart is
 *   shown;
 * - the rows: selection by click and keys (`row-selection.ts`), the flash of a changed price
 *   (`flash.ts`), the hover, selection and missing rows' styles;
 * - the announcer of the selected symbol's price changes (`announcer.ts`);
 * - the clock that turns rows stale, and the date formatting of the time cells (`clock.ts`);
 * - the status line's text but while loading (`status-text.ts`), and the statuses' and the error
 *   box's styles (`board-controllers.styles.ts`).
 */
import type { BoardSettings } from '../shared/attribute-table';
import type { ConnectionStatus, Quote } from '../shared/types';
import type { RowView } from '../widget/row-view';
import { BoardChart, type ChartHost } from './board-chart';
import { PriceAnnouncer } from './announcer';
import { controllerStyles } from './board-controllers.styles';
import { Clock } from './clock';
import { PriceFlash } from './flash';
import { flashStyles } from './flash.styles';
import { RowSelection, type SelectionHost } from './row-selection';
import { statusLine } from './status-text';
import { addStyles } from '../widget/add-styles';

/** What the extras need of the board. */
export type ControllersHost = ChartHost & SelectionHost;

/** What the extras read of the board's quotes (its `QuotesController`). */
export interface QuotesSource {
  get(symbol: string): Quote | undefined;
  changedAt(symbol: string): number | undefined;
  readonly status: ConnectionStatus;
  readonly delaySeconds: number;
  /** The quotes are still the relay's render's (the status line says when they were read). */
  readonly held: boolean;
}

/** The board's extras, once their chunk has loaded: each part, and their styles beside the board's. */
export class BoardControllers {
  readonly chart: BoardChart;
  readonly rows: RowSelection;
  readonly announcer: PriceAnnouncer;
  readonly clock: Clock;
  readonly flash: PriceFlash;
  readonly #quotes: QuotesSource;

  /** `selected`: the chart symbol now. */
  constructor(board: ControllersHost, quotes: QuotesSource, selected: string) {
    this.#quotes = quotes;
    this.chart = new BoardChart(board, (symbol) => quotes.get(symbol));
    this.announcer = new PriceAnnouncer(board, quotes, selected);
    this.rows = new RowSelection(board);
    this.clock = new Clock(board);
    this.flash = new PriceFlash(board, quotes);
    // Beside the board's (and the columns' and chart area's chunks', whichever came first).
    addStyles(board, [controllerStyles, flashStyles]);
  }

  /** The status line's text (see `statusLine`); `failing`: a failure is shown beside it. */
  statusText(s: BoardSettings, closedSince: number | undefined, now: Date, failing: boolean): string {
    return statusLine(this.#quotes, s, closedSince, now, failing);
  }

  /** The rows are on screen (with data, or an error in their place): the chart and the times may follow. */
  rowsShown(): void {
    this.chart.rowsShown();
    this.clock.rowsShown();
  }

  /** A batch of quotes was applied: the chart follows; `symbol` is selected, and `row` gives its view now. */
  quotesApplied(quotes: Quote[], symbol: string, row: () => RowView | undefined): void {
    this.chart.applyQuotes(quotes);
    this.announcer.quotesApplied(symbol, row);
  }
}
