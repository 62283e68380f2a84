/**
 * The board's chart, loaded with the board's extras (`board/board-extras.ts`): its controller
 * (history, the chart chunk, the last candle following live quotes), its section in the template
 * (title, span buttons, `part="chart"`) and the section's styles.
 */
import type { LitElement, TemplateResult } from 'lit';
import type { BoardSettings, HistoryDays } from '../shared/attributes';
import type { Quote } from '../shared/types';
import { reportError } from '../widget/emit';
import type { RowView } from '../widget/row-view';
import { ChartController } from './chart-controller';
import { renderChart } from './chart-section';

export { chartStyles } from './chart-section.styles';

/** What the chart needs of the board. */
export type ChartHost = LitElement & {
  /** The `days` property, set by the span buttons. */
  days: HistoryDays;
};

export class BoardChart {
  readonly #board: ChartHost;
  readonly #controller: ChartController;

  /** `latest`: the board's latest quote of a symbol. */
  constructor(board: ChartHost, latest: (symbol: string) => Quote | undefined) {
    this.#board = board;
    const find = (selector: string) => board.renderRoot?.querySelector<HTMLElement>(selector);
    this.#controller = new ChartController(board, {
      container: () => find('.chart-canvas'),
      themeSource: () => find('.board'),
      latest,
      onError: (error) => reportError(board, error),
    });
  }

  /** The chart's settings, from the board's. */
  configure(s: BoardSettings): void {
    this.#controller.configure({
      mode: s.chart,
      symbol: s.chartSymbol,
      days: s.days,
      unit: s.unit,
      theme: s.theme,
      baseUrl: s.baseUrl,
      apiKey: s.apiKey,
    });
  }

  /** The board's rows are on screen: the chart may follow them. */
  rowsShown(): void {
    this.#controller.rowsShown();
  }

  /** Live quotes: the chart symbol's one moves the last candle. */
  applyQuotes(quotes: readonly Quote[]): void {
    this.#controller.applyQuotes(quotes);
  }

  /** The chart section; `selected` is the chart symbol's row. */
  render(s: BoardSettings, selected: RowView | undefined): TemplateResult {
    const { view } = this.#controller;
    return renderChart({
      ...view,
      title: selected && !selected.loading ? selected.title : s.chartSymbol,
      days: view.status === 'ready' ? (view.shownDays ?? s.days) : s.days,
      onSpan: (event) => {
        const days = (event.target as Element | null)?.closest<HTMLElement>('button[data-days]')?.dataset.days;
        if (days) this.#board.days = Number(days) as HistoryDays;
      },
    });
  }
}
