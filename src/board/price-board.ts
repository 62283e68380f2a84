import { html, nothing, type PropertyValues } from 'lit';
import { PriceBoardError } from '../shared/errors';
import type { Quote } from '../shared/types';
import { BOARD_ATTRIBUTES, type BoardProperties, type BoardSettings } from '../shared/attribute-table';
import { litProperties } from '../widget/settings';
import type { BoardControllers } from './board-controllers';
import { emit } from '../widget/emit';
import { backoffDelay } from '../api/backoff';
import { startTimer } from '../api/timer';
import { importOnce } from '../widget/lazy-import';
import { afterPaint } from '../shared/idle-task';
import { Columns, followed } from './columns';
import { RenderGate } from './render-gate';
import { clickedRow, selectRow } from './select-row';
import { styles } from './price-board.styles';
import { narrowLayouts } from './narrow-layouts.styles';
import { isStale } from '../model/quote';
import { dayOf, quoteRow, type RowContext } from '../widget/row-view';
import { renderError } from '../widget/error-view';
import { PriceWidget } from '../widget/price-widget';
import { LOADING_TEXT, renderStatus, renderTable } from './templates';

type Extras = typeof import('./board-controllers');

/** Retries of a failed extras import: 0.5–1 s, 1–2 s, … at most 15–30 s (equal jitter: many boards spread out). */
const EXTRAS_RETRY = { baseMs: 1_000, maxMs: 30_000 };
/**
 * The board's extras (`board-controllers.ts`): imported once per page, again after a failure. Once
 * loaded, a board takes them at its next update (`loaded`): a board added later, or rendered by the
 * relay (whose renderer imports them through this before its first render), shows its status text
 * and times at once.
 */
export const loadExtras = importOnce<Extras>(() => import('./board-controllers'));
/**
 * Connected boards whose extras import failed and that wait for their retry: whichever board of
 * the page loads the chunk first hands it to all of them at once.
 */
const waitingForExtras = new Set<PriceBoard>();

/**
 * A live price board for the Iranian market: Persian, right to left, with a candlestick chart.
 *
 * Quotes come from `/v1/prices` and the live stream (shared by every board on the page with the
 * same `base-url` and key); the chart code is loaded only when a chart is shown. A configuration
 * mistake is said to the developer only (`price-board-error` and one `console.warn`), never to
 * visitors: an invalid attribute value falls back to its default (`invalid_attribute`), a symbol
 * the service does not know has no row (`unknown_symbol`).
 *
 * @summary Embeddable live price board (Persian, RTL) with a chart.
 * @tagname price-board
 *
 * @fires {CustomEvent<{ quotes: Quote[] }>} price-board-quotes - After each applied batch of quote changes, at most once per animation frame.
 * @fires {CustomEvent<{ status: ConnectionStatus }>} price-board-status - When the connection state changes: `loading`, `live`, `polling`, `reconnecting`, `offline` or `error`.
 * @fires {CustomEvent<{ code: ErrorCode; message: string; status?: number; attribute?: string; symbols?: string[] }>} price-board-error - On each failure the user should know of; `message` is Persian; `attribute` (`invalid_attribute`) and `symbols` (`unknown_symbol`) name what to fix; never holds the API key.
 * @fires {CustomEvent<{ symbol: string }>} price-board-select - When the user changes the chart symbol (click, Enter or Space on a row).
 *
 * @csspart board - The root; `dir="rtl"`, `lang="fa"`.
 * @csspart row - One per symbol, its cells those of `columns` in that order: `data-symbol`, `data-direction` (`up`/`down`/`flat`), `data-stale` (market closed), `data-missing` (not returned by the service).
 * @csspart title - A row's Persian title (a placeholder until it is known, never the id).
 * @csspart price - A row's price: toman or rial, US dollars for `ons` and `silver_ounce`.
 * @csspart change - A row's signed change in percent, with ▲/▼.
 * @csspart high - A row's high, in the price's unit.
 * @csspart low - A row's low, in the price's unit.
 * @csspart time - When the row's quote last changed: today's time, else the Jalali date (Tehran).
 * @csspart change-amount - (`columns`) A row's change in its unit, exact from the price and percent, signed; `data-sign` (`up`/`down`/`flat`).
 * @csspart spark - (`columns`) A row's line of the last 7 days.
 * @csspart bubble - (`columns`) A coin's price over the world price of its gold, as a signed percent; its `title` says how it was computed ([docs/coins.md](../coins.md)). Empty for other rows.
 * @csspart status - The connection state line; `data-status`, and `data-market`: `closed` when every shown quote is stale (it then says «بازار بسته» and when the last one changed), else `open`.
 * @csspart chart - The chart of `chart-symbol`.
 * @csspart error - The current error, in a visitor's Persian words; `data-code`. Never a configuration mistake (but when no symbol is known).
 *
 * @cssprop [--price-board-font=Vazirmatn, Vazir, Tahoma, Segoe UI, Noto Sans Arabic, Geeza Pro, DejaVu Sans, sans-serif] - Font family.
 * @cssprop [--price-board-bg=#ffffff] - Background (dark theme: #16191e).
 * @cssprop [--price-board-fg=#1b1f24] - Text colour (dark theme: #e6e9ee).
 * @cssprop [--price-board-muted=#59616e] - Secondary text (dark theme: #9ba4b2).
 * @cssprop [--price-board-border=#d5dae1] - Borders and grid lines (dark theme: #323843).
 * @cssprop [--price-board-up=#0a7a3d] - Rising prices (dark theme: #4cc987).
 * @cssprop [--price-board-down=#c0262d] - Falling prices and errors (dark theme: #ff7b7b).
 * @cssprop [--price-board-accent=#1d5fc4] - Selection, focus ring, line chart (dark theme: #7fb0ff).
 * @cssprop [--price-board-radius=12px] - Corner radius of the board.
 * @cssprop --price-board-max-height - The most the board takes without its chart (status line and column header included); beyond it the rows scroll under the header. Unset: no limit.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- typed by the interface below
export class PriceBoard extends PriceWidget {
  static override styles = [styles, narrowLayouts];

  /**
   * The connection attributes and the board's own (`chart`, `chart-symbol`, `days`) are read into its settings.
   * @internal
   */
  static override settingsAttributes = BOARD_ATTRIBUTES;

  // Reactive properties from the attribute table (static rather than decorators: the decorators'
  // helper code is not needed). Their docs are the table's: `shared/attribute-table.ts`.
  static override properties = litProperties(BOARD_ATTRIBUTES);

  /** @internal */
  static override tag = 'price-board';

  /** The connection settings and the board's own. */
  declare protected settings: BoardSettings;

  readonly #renderGate = new RenderGate();

  /** Anything from the live data renders the first rows at once (see `render-gate.ts`). */
  protected override liveReported(): void {
    this.#renderGate.open();
  }

  readonly #columns = new Columns(this, {
    get: (symbol) => this.live.get(symbol),
    connection: () => ({ baseUrl: this.settings.baseUrl, apiKey: this.settings.apiKey }),
  });

  /** The board's symbols and, for the bubble column, `ons` and `usd` (followed, not shown). */
  protected override liveSymbols(settings: BoardSettings): string[] {
    return followed(settings.symbols, settings.columns);
  }

  /** Without the symbols followed for a column only (the bubble's `ons` and `usd`). */
  protected override shownQuotes(quotes: Quote[]): Quote[] {
    // Only while the bubble is shown does the board follow a symbol it does not show (every frame's batch comes here).
    if (!this.settings?.columns.includes('bubble')) return quotes;
    const shown = new Set(this.settings.symbols);
    return quotes.filter((q) => shown.has(q.symbol));
  }

  protected override quotesApplied(quotes: Quote[]): void {
    const selected = this.#chartSymbol();
    this.#extras?.quotesApplied(quotes, selected, () => {
      const quote = this.live.get(selected);
      return quote && quoteRow(quote, this.#rowContext());
    });
  }

  /**
   * What the first rows do not need (`board-controllers.ts`), once its chunk has loaded: it is asked
   * for once the first render (the rows, or their skeleton) is painted.
   */
  #extras: BoardControllers | undefined;
  /** Why the extras' chunk did not load (shown where the chart goes), while it is asked for again. */
  #extrasFailure: PriceBoardError | undefined;
  #extrasAttempts = 0;
  #cancelExtrasRetry: (() => void) | undefined;
  /** Cancels the wait for the first render's paint before the extras are asked for. */
  #cancelExtrasWait: (() => void) | undefined;

  // ── Start ─────────────────────────────────────────────────────────────────────────────────

  /**
   * Once the prices requests are out (the board started with every widget connected in its task,
   * `price-widget.ts`): the chart's settings; then, once the first render (the rows, or their
   * skeleton) is painted, the board's extras and, when a chart is shown, the chart area's chunk.
   * Asked for beside the prices request, their fetch, compile and styles competed with the rows'
   * answer, render and layout (about 10 ms of main-thread time of the first paint, `bench/cpu.ts`).
   */
  protected override started(): void {
    this.#configureChart();
    if (this.#extras || this.#cancelExtrasWait) return;
    let cancel = (): void => {};
    const wait = (this.#cancelExtrasWait = () => cancel());
    void this.updateComplete.then(() => {
      if (this.#cancelExtrasWait !== wait) return; // disconnected meanwhile
      cancel = afterPaint(() => {
        this.#cancelExtrasWait = undefined;
        // The chart area's chunk too, when a chart is shown, rather than after the extras.
        if (this.settings.chart !== 'none') import('./chart-area').catch(() => {}); // the chart area reports a failure
        this.#loadExtras();
      });
    });
  }

  #loadExtras(): void {
    this.#stopExtrasRetry();
    loadExtras().then(
      (module) => {
        for (const board of [this, ...waitingForExtras]) board.#extrasLoaded(module);
      },
      (cause: unknown) => this.#extrasFailed(cause),
    );
  }

  /**
   * The extras' chunk did not load (the rows are shown without it): `price-board-error`
   * (`network`) once per outage, its Persian message where the chart goes, and the import is tried
   * again with a capped backoff (`EXTRAS_RETRY`), and at the next connection.
   */
  #extrasFailed(cause: unknown): void {
    if (!this.isConnected || this.#extras) return;
    this.#cancelExtrasRetry?.(); // one retry at a time, whatever the number of imports that failed
    const first = !this.#extrasFailure;
    this.#extrasFailure = new PriceBoardError('network', "The board's chart and keyboard code failed to load", {
      cause,
      // "Part of the board (the chart and keys) did not load; trying again." Not the price service's fault.
      messageFa: 'بخشی از تابلو (نمودار و کلیدها) بارگیری نشد؛ دوباره تلاش می‌شود.',
    });
    if (first) emit(this, 'price-board-error', this.#extrasFailure.toDetail());
    waitingForExtras.add(this);
    this.#cancelExtrasRetry = startTimer(
      () => this.#loadExtras(),
      backoffDelay(this.#extrasAttempts++, EXTRAS_RETRY, 'equal'),
    );
    this.requestUpdate();
  }

  /** @internal */
  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#stopExtrasRetry();
    this.#cancelExtrasWait?.();
    this.#cancelExtrasWait = undefined;
  }

  #stopExtrasRetry(): void {
    waitingForExtras.delete(this);
    this.#cancelExtrasRetry?.();
    this.#cancelExtrasRetry = undefined;
  }

  #extrasLoaded({ BoardControllers }: Extras): void {
    if (this.#extras) return;
    this.#stopExtrasRetry();
    this.#extrasFailure = undefined;
    this.#extrasAttempts = 0;
    this.#extras = new BoardControllers(this, this.live, this.#chartSymbol());
    this.#configureChart();
    this.requestUpdate(); // its `updated` tells the chart whether the rows are shown
  }

  /** The first render waits for the first answer, or the skeleton delay (see `render-gate.ts`). */
  protected override async scheduleUpdate(): Promise<void> {
    if (!this.hasUpdated) {
      await this.#renderGate.wait(!this.overServerRender);
      // Over the relay's render, the first update shows what it shows (status text, times): the
      // extras and the date formatters first, while the rendered rows stay on screen.
      if (this.overServerRender) {
        const module = await loadExtras().catch(() => undefined);
        if (module) this.#extrasLoaded(module);
        await this.#extras?.clock.ready();
      }
    }
    await super.scheduleUpdate();
  }

  protected override willUpdate(changed: PropertyValues): void {
    const before = this.settings;
    super.willUpdate(changed);
    if (loadExtras.loaded) this.#extrasLoaded(loadExtras.loaded);
    // The settings were read anew, or the chart's symbol changed (the first symbol turned out unknown).
    if (this.settings !== before || this.#chartShown !== this.#chartSymbol()) this.#configureChart();
    this.#columns.update(this.settings);
  }

  protected override firstUpdated(): void {
    // Its first render is light even with the extras there (a second board, or over the relay's
    // render): the full form follows its paint, as it does the extras' arrival.
    if (this.#extras) afterPaint(() => this.requestUpdate());
  }

  protected override updated(): void {
    // Rows with data (or an error in their place) are on screen: the chart and the times may follow.
    if (this.#isLoading() && !this.settings.symbols.some((symbol) => this.live.get(symbol))) return;
    this.#extras?.rowsShown(); // else its arrival renders again
  }

  /** The chart symbol the chart was last configured with. */
  #chartShown: string | undefined;

  #configureChart(): void {
    // No symbol the service knows (the relay's snapshot can say so before any request): no chart, no history asked.
    if (!this.#extras || this.knownSymbols().length === 0) return;
    this.#chartShown = this.#chartSymbol();
    this.#extras.chart.configure({ ...this.settings, chartSymbol: this.#chartShown });
  }

  // ── Template ──────────────────────────────────────────────────────────────────────────────

  protected override render() {
    const s = this.settings;
    const now = new Date();
    const known = this.knownSymbols();
    const rows = this.rows(this.#rowContext(now), this.#isLoading());
    const chartSymbol = this.#chartSymbol();
    const selected = rows.find((r) => r.symbol === chartSymbol);
    const extras = this.#extras;
    const closedSince = this.#closedSince(now);
    return html`<div part="board" class="board" dir="rtl" lang="fa" data-theme=${s.theme} data-density=${s.density}>
      <div class="sheet">
        <div class="top">
          ${renderStatus(this.live.status, known.length === 0 ? '' : this.#statusText(closedSince, now), closedSince === undefined ? 'open' : 'closed')}
        </div>
        ${renderError(this.error, known.length === 0)}
        ${renderTable(rows, {
          unit: s.unit,
          columns: s.columns,
          loading: this.#isLoading(),
          selected: chartSymbol,
          tabStop: extras?.rows.tabStop(s.symbols, chartSymbol) ?? chartSymbol,
          flashOf: (symbol) => !!extras?.flash.on(symbol),
          onRowEvent: this.#onRowEvent,
          extra: this.#columns.extra,
          // The light form in the first render (the relay's too), and until the extras come after
          // its paint: then the full one, with the same boxes.
          light: !extras || !this.hasUpdated,
        })}
      </div>
      ${
        s.chart === 'none' || known.length === 0 // no symbol the service knows: nothing to chart
          ? nothing
          : extras
            ? extras.chart.render({ ...s, chartSymbol }, selected)
            : this.#extrasFailure
              ? html`<div class="chart-pending"><p role="alert" data-code=${this.#extrasFailure.code}>${this.#extrasFailure.messageFa}</p></div>`
              : html`<div class="chart-pending" aria-hidden="true"></div>`
      }
      <div class="sr-only" role="status" aria-live="polite" aria-atomic="true">${extras?.announcer.text ?? ''}</div>
    </div>`;
  }

  /**
   * The status line's text: in full once the extras are there, else only while loading. While a
   * failure is shown it never says the prices are live, polled or the market's (`status-text.ts`).
   */
  #statusText(closedSince: number | undefined, now: Date): string {
    const extras = this.#extras;
    if (extras) return extras.statusText(this.settings, closedSince, now, !!this.error);
    return this.live.status === 'loading' ? LOADING_TEXT : '';
  }

  /**
   * The market is closed when every quote shown is stale (DESIGN.md section 9): then when the
   * last of them changed (epoch ms; NaN when none has a readable time). Undefined while it is open,
   * or nothing is shown.
   */
  #closedSince(now: Date): number | undefined {
    let latest = NaN;
    let shown = false;
    for (const symbol of this.settings.symbols) {
      const quote = this.live.get(symbol);
      if (!quote) continue;
      if (!isStale(quote, now)) return undefined;
      shown = true;
      const at = Date.parse(quote.updated_at);
      if (at > latest || Number.isNaN(latest)) latest = at;
    }
    return shown ? latest : undefined;
  }

  /**
   * The symbol whose chart is shown: `chart-symbol`, or by default the first symbol the service
   * knows (the first one may be unknown: its row is missing, and it has no history).
   */
  #chartSymbol(): string {
    const { chartSymbol, symbols } = this.settings;
    const missing = this.live.missing;
    if (this.chartSymbol || !missing.has(chartSymbol)) return chartSymbol;
    return symbols.find((symbol) => !missing.has(symbol)) ?? chartSymbol;
  }

  #isLoading(): boolean {
    return this.live.status === 'loading' && !this.live.error;
  }

  /** What every row depends on besides its quote; no date before the date formatters are prepared. */
  #rowContext(now = new Date()): RowContext {
    const dates = this.#extras?.clock.dates();
    return { unit: this.settings.unit, now, day: dates && dayOf(now, dates), dates };
  }

  // ── Events ────────────────────────────────────────────────────────────────────────────────

  /**
   * A click, key press or focus in the rows: the extras' (`row-selection.ts`). Before they are
   * there (or while their chunk fails to load) a click still selects its row; keys do what the
   * browser does.
   */
  #onRowEvent(event: Event): void {
    if (this.#extras) return this.#extras.rows.handle(event, this.#chartSymbol());
    const symbol = event.type === 'click' ? clickedRow(event) : undefined;
    if (symbol) selectRow(this, symbol, this.#chartSymbol());
  }
}

// The attribute-backed properties (`symbols`, `apiKey`, ...) as typed by the attribute table.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the table declares them; Lit defines them
export interface PriceBoard extends BoardProperties {}
