/**
 * What the board loads beside its first prices request, out of the initial module: the chart
 * area's controller, the chart section's template and styles, the styles of statuses, errors,
 * selection and focus (`board-extras.styles.ts`), the status line's text (but while loading),
 * the flash of a changed price, the announcer of price changes, the clock that turns rows stale,
 * the date formatting of the time cells, and the selection of rows by click and keys
 * (`row-selection.ts`). The first rows need none of it, and never wait for it.
 */
import { adoptStyles, supportsAdoptingStyleSheets, type LitElement, type TemplateResult } from 'lit';
import type { BoardSettings, HistoryDays } from '../shared/attributes';
import type { ConnectionStatus, Quote } from '../shared/types';
import { Announcer } from './announcer';
import { extraStyles } from './board-extras.styles';
import { ChartController } from '../chart/chart-controller';
import { renderChart } from '../chart/chart-section';
import { chartStyles } from '../chart/chart-section.styles';
import { Clock } from './clock';
import type { DateFormat } from '../format/date';
import { datesReady, prepareDates } from './dates';
import { reportError } from '../widget/emit';
import { flashStyles } from './flash.styles';
import type { RowView } from '../widget/row-view';
import { RowSelection, type SelectionHost } from './row-selection';
import { statusText } from './status-text';

/** What the extras need of the board. */
export type ExtrasHost = LitElement &
  SelectionHost & {
    /** The `days` property, set by the chart section's span buttons. */
    days: HistoryDays;
  };

/** What the extras read of the board's quotes (its `QuotesController`). */
export interface QuotesSource {
  get(symbol: string): Quote | undefined;
  changeCount(symbol: string): number;
  readonly status: ConnectionStatus;
  readonly delaySeconds: number;
}

/**
 * The board's extras, once their chunk has loaded: the chart area (its settings, its section in
 * the template), the announcements of the selected price, the row selection, the clock, the
 * date formatters of the time cells, the status line's text, and their styles beside the board's.
 */
export class BoardExtras {
  readonly announcer: Announcer;
  readonly rows: RowSelection;
  readonly #chartArea: ChartController;
  readonly #board: ExtrasHost;
  readonly #quotes: QuotesSource;
  /** Price changes of the selected symbol already announced (or made before the extras came). */
  #spoken: { symbol: string; changes: number };

  /** `selected`: the chart symbol now. */
  constructor(board: ExtrasHost, quotes: QuotesSource, selected: string) {
    this.#board = board;
    this.#quotes = quotes;
    this.#spoken = { symbol: selected, changes: quotes.changeCount(selected) };
    const find = (selector: string) => board.renderRoot?.querySelector<HTMLElement>(selector);
    this.#chartArea = new ChartController(board, {
      container: () => find('.chart-canvas'),
      themeSource: () => find('.board'),
      latest: (symbol) => quotes.get(symbol),
      onError: (error) => reportError(board, error),
    });
    this.announcer = new Announcer(board);
    this.rows = new RowSelection(board);
    new Clock(board);
    // Without adopted style sheets Lit appends a <style> per sheet: only the new ones then.
    const extra = [extraStyles, flashStyles, chartStyles];
    const own = (board.constructor as typeof LitElement).elementStyles;
    adoptStyles(board.renderRoot as ShadowRoot, supportsAdoptingStyleSheets ? [...own, ...extra] : extra);
  }

  /** The chart's settings, from the board's. */
  configure(s: BoardSettings): void {
    this.#chartArea.configure({
      mode: s.chart,
      symbol: s.chartSymbol,
      days: s.days,
      unit: s.unit,
      theme: s.theme,
      baseUrl: s.baseUrl,
      apiKey: s.apiKey,
    });
  }

  /**
   * The status line's text; `closedSince` (epoch ms, NaN when unreadable): the market is closed
   * and the last shown quote changed then (its time today, else its Jalali date and time).
   */
  statusText(s: BoardSettings, closedSince?: number, now = new Date()): string {
    let closedAt: string | undefined;
    const dates = datesReady();
    if (closedSince !== undefined) {
      const at = new Date(closedSince);
      closedAt =
        !dates || Number.isNaN(closedSince)
          ? ''
          : dates.formatJalaliDate(at) === dates.formatJalaliDate(now)
            ? dates.formatTime(at)
            : `${dates.formatJalaliDate(at, 'long')} ${dates.formatTime(at)}`;
    }
    return statusText(
      this.#quotes.status,
      { stream: s.stream, pollInterval: s.pollInterval, delaySeconds: this.#quotes.delaySeconds },
      closedAt,
    );
  }

  /** The date formatters of the time cells, once prepared (see {@link rowsShown}). */
  dates(): DateFormat | undefined {
    return datesReady();
  }

  /** The rows are on screen (with data, or an error in their place): the chart and the times may follow. */
  rowsShown(): void {
    this.#chartArea.rowsShown();
    if (!datesReady()) void prepareDates().then(() => this.#board.requestUpdate());
  }

  /** The chart section; `selected` is the chart symbol's row. */
  renderChart(s: BoardSettings, selected: RowView | undefined): TemplateResult {
    const { view } = this.#chartArea;
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

  /**
   * A batch of quotes was applied: the chart follows, and a change of the selected symbol's price
   * (`row`: its view now) is announced politely, throttled.
   */
  quotesApplied(quotes: Quote[], symbol: string, row: () => RowView | undefined): void {
    this.#chartArea.applyQuotes(quotes);
    const changes = this.#quotes.changeCount(symbol);
    if (this.#spoken.symbol !== symbol) {
      this.#spoken = { symbol, changes };
      return;
    }
    const view = changes > this.#spoken.changes ? row() : undefined;
    if (!view) return;
    this.#spoken.changes = changes;
    this.announcer.announce(`${view.title}: ${view.spokenPrice}، تغییر ${view.change}`);
  }
}
