/**
 * The board's chart, held by the board's extras (`board/board-controllers.ts`). Its code (section,
 * styles, history, the chart chunk's loading: `chart-area.ts`) is a chunk loaded only when a chart
 * is shown (the board asks for it beside its extras): a chart="none" board loads none of it. Until
 * it is there the board keeps the section's room, with the reason when it did not load (tried again
 * at the next change of the board's settings).
 */
import { html, isServer, nothing, type TemplateResult } from 'lit';
import type { BoardSettings } from '../shared/attribute-table';
import type { PriceBoardError } from '../shared/errors';
import type { Quote } from '../shared/types';
import { reportError } from '../widget/emit';
import { importOnce } from '../widget/lazy-import';
import type { RowView } from '../widget/row-view';
import type { ChartArea, ChartHost } from './chart-area';
import { chartLoadFailed } from './chart-view';

export type { ChartHost } from './chart-area';

const loadChartArea = importOnce(() => import('./chart-area'));

export class BoardChart {
  readonly #board: ChartHost;
  readonly #latest: (symbol: string) => Quote | undefined;
  #area: ChartArea | undefined;
  #settings: BoardSettings | undefined;
  /** The chart area's import under way (or done); none after a failure. */
  #loading: Promise<void> | undefined;
  #failure: PriceBoardError | undefined;

  /** `latest`: the board's latest quote of a symbol. */
  constructor(board: ChartHost, latest: (symbol: string) => Quote | undefined) {
    this.#board = board;
    this.#latest = latest;
  }

  /** The chart's settings, from the board's. */
  configure(s: BoardSettings): void {
    this.#settings = s;
    if (this.#area) this.#area.configure(s);
    // A server renders the chart's room only (chart-pending, at its final height).
    else if (s.chart !== 'none' && !this.#loading && !isServer) this.#loading = this.#load();
  }

  /** The board's rows are on screen (said at each of its updates from then on): the chart may follow them. */
  rowsShown(): void {
    this.#area?.rowsShown();
  }

  /** Live quotes: the chart symbol's one moves the last candle. */
  applyQuotes(quotes: readonly Quote[]): void {
    this.#area?.applyQuotes(quotes);
  }

  /** The chart section; `selected` is the chart symbol's row. */
  render(s: BoardSettings, selected: RowView | undefined): TemplateResult {
    const failure = this.#failure;
    return (
      this.#area?.render(s, selected) ??
      html`<div class="chart-pending">
        ${failure ? html`<p role="alert" data-code=${failure.code}>${failure.shownFa}</p>` : nothing}
      </div>`
    );
  }

  #load(): Promise<void> {
    const board = this.#board;
    return loadChartArea().then(
      ({ ChartArea }) => {
        this.#area = new ChartArea(board, this.#latest);
        this.#area.configure(this.#settings!);
        board.requestUpdate(); // its update says whether the rows are shown
      },
      (error: unknown) => {
        this.#loading = undefined;
        this.#failure = chartLoadFailed(error);
        reportError(board, this.#failure);
        board.requestUpdate();
      },
    );
  }
}
