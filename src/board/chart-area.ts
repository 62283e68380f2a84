/**
 * The board's chart area, a chunk loaded only when a chart is shown (`board-chart.ts`, with the
 * board's extras, loads it): its section in the template (title, span buttons, `part="chart"`)
 * and the section's styles; the history of the chart symbol (falling back 365 → 30 → 7 days when
 * the plan rejects a span); the chart chunk (lightweight-charts), made once the board's first rows
 * are painted (`rows-painted.ts`); the last candle following live quotes; failures shown in the
 * chart area only. Its labels, colours and span note: `chart-appearance.ts`.
 */
import { type LitElement, type TemplateResult } from 'lit';
import { addStyles } from '../widget/add-styles';
import { backoffDelay } from '../api/backoff';
import { PriceBoardError } from '../shared/errors';
import { startTimer } from '../api/timer';
import type { Candle, DisplayUnit, Quote } from '../shared/types';
import type { PriceChart } from '../chart/types';
import { applyQuoteToCandles, intervalFor } from '../model/history';
import type { BoardSettings, ChartMode, HistoryDays } from '../shared/attribute-table';
import { reportError } from '../widget/emit';
import { afterPaint } from '../shared/idle-task';
import { importOnce } from '../widget/lazy-import';
import type { RowView } from '../widget/row-view';
import { chartLoadFailed, type ChartView } from './chart-view';
import { renderChart } from './chart-section';
import { chartStyles } from './chart-section.styles';
import { HISTORY_RETRY, loadHistory, sourceFor, type HistorySource } from '../chart/history-source';
import { chartPriceFormatter, readChartTheme, spanNote } from './chart-appearance';

/**
 * The rows come first: the chart (whose creation takes a style read, layout and canvas work) is
 * made only once the board's first rows are painted, or after this long without them (slow
 * prices, while the history is there).
 */
const ROWS_FIRST_MAX_WAIT_MS = 1_000;

/** The chart chunk (lightweight-charts). */
const loadChartModule = importOnce(() => import('../chart/price-chart'));

/** What the chart shows; from the board's settings. */
interface ChartSettings {
  mode: ChartMode;
  symbol: string;
  days: HistoryDays;
  unit: DisplayUnit;
  theme: string;
  baseUrl: string;
  apiKey: string | undefined;
}

/** What the chart needs of the board. */
export type ChartHost = LitElement & {
  /** The `days` property, set by the span buttons. */
  days: HistoryDays;
};

const isAbort = (error: unknown, signal: AbortSignal): boolean =>
  signal.aborted || (error as Error)?.name === 'AbortError';

/**
 * The chart area of one board, a controller of the board (its lifecycle): the board's chart
 * (`board-chart.ts`) forwards its settings, quotes and first rows, and renders its section.
 */
export class ChartArea {
  /** What the template shows. */
  readonly view: ChartView = {
    status: 'idle',
    shownDays: undefined,
    note: undefined,
    error: undefined,
    description: '',
  };
  readonly #host: ChartHost;
  /** The board's latest quote of a symbol, to bring fresh history up to now. */
  readonly #latest: (symbol: string) => Quote | undefined;
  #settings: ChartSettings | undefined;
  #connected = false;
  #source: HistorySource | undefined;
  /** Candles of the shown symbol in the service's unit (rial or dollars); live quotes extend them. */
  #candles: Candle[] | undefined;
  #loadAbort: AbortController | undefined;
  /** The pending retry of a failed load, and how many retries of this chart went before. */
  #cancelRetry: (() => void) | undefined;
  #retries = 0;
  #chart: PriceChart | undefined;
  /** Live changes not drawn yet: the first candle they touched (Infinity: none), and the pending draw. */
  #liveFrom = Infinity;
  #cancelLive: (() => void) | undefined;
  #creating = false;
  #themeDirty = false;
  /** The system's colour scheme, and printing (the board prints light): the chart takes the board's colours again. */
  readonly #media = ['(prefers-color-scheme:dark)', 'print'].map((query) => globalThis.matchMedia?.(query));
  readonly #onSchemeChange = (): void => this.#applyTheme();
  /** Resolves once the board's first rows are painted (see {@link rowsShown}), or after `ROWS_FIRST_MAX_WAIT_MS`. */
  readonly #rowsPainted: Promise<void>;
  #releaseChart!: () => void;
  #released = false;
  #cancelWait: (() => void) | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(host: ChartHost, latest: (symbol: string) => Quote | undefined) {
    this.#host = host;
    this.#latest = latest;
    this.#rowsPainted = new Promise((resolve) => (this.#releaseChart = resolve));
    addStyles(host, [chartStyles]);
    host.addController(this);
  }

  /** The chart section; `selected` is the chart symbol's row. */
  render(s: BoardSettings, selected: RowView | undefined): TemplateResult {
    const { view } = this;
    return renderChart({
      ...view,
      title: selected && !selected.loading ? selected.title : '…', // never the Latin id (DESIGN.md §9): a title is known with its first price
      days: view.status === 'ready' ? (view.shownDays ?? s.days) : s.days,
      onSpan: (event) => {
        const days = (event.target as Element | null)?.closest<HTMLElement>('button[data-days]')?.dataset.days;
        if (days) this.#host.days = Number(days) as HistoryDays;
      },
    });
  }

  /** The board rendered its first rows with data (or with an error instead): the chart may follow them. */
  rowsShown(): void {
    if (this.#released || this.#cancelWait) return;
    // The chart's chunk is fetched from now on: evaluated earlier, its 170 KB of code would hold up
    // the answer's rows on a slow CPU; the history takes as long.
    if (this.#settings?.mode !== 'none') loadChartModule().catch(() => {}); // reported where the chart is made
    this.#cancelWait = afterPaint(() => this.#release());
  }

  #release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#cancelWait?.();
    clearTimeout(this.#timer);
    this.#releaseChart();
  }

  #find(selector: string): HTMLElement | null | undefined {
    return this.#host.renderRoot?.querySelector<HTMLElement>(selector);
  }

  /** The board's settings for the chart; fetches only what changed. */
  configure(s: BoardSettings): void {
    this.#configure({
      mode: s.chart,
      symbol: s.chartSymbol,
      days: s.days,
      unit: s.unit,
      theme: s.theme,
      baseUrl: s.baseUrl,
      apiKey: s.apiKey,
    });
  }

  #configure(next: ChartSettings): void {
    const prev = this.#settings;
    this.#settings = next;
    if (next.mode === 'none') {
      this.#stop();
      this.#destroyChart();
      this.view.status = 'idle';
      return;
    }
    if (!this.#released) this.#timer ??= setTimeout(() => this.#release(), ROWS_FIRST_MAX_WAIT_MS);
    const sourceChanged = !prev || !this.#source || prev.baseUrl !== next.baseUrl || prev.apiKey !== next.apiKey;
    if (sourceChanged) this.#source = sourceFor(next.baseUrl, next.apiKey);
    const reload = sourceChanged || prev.mode === 'none' || prev.symbol !== next.symbol || prev.days !== next.days;
    if (prev && prev.theme !== next.theme) this.#themeDirty = true;
    if (this.#chart && prev && prev.mode !== next.mode) this.#chart.setType(next.mode === 'line' ? 'line' : 'candles');
    if (reload) {
      this.#stopRetrying();
      if (this.#connected) void this.#load();
    } else if (prev && prev.unit !== next.unit) {
      this.#draw();
    }
  }

  /**
   * Live quotes: the chart symbol's one moves the last candle (`update`, never a full redraw). The
   * chart draws it after the frame that paints the rows of the same batch, not in that frame:
   * lightweight-charts redraws its canvases in the next animation frame, and that frame also lays
   * out and paints the rows, which made it the longest task of a live board.
   */
  applyQuotes(quotes: readonly Quote[]): void {
    const symbol = this.#settings?.symbol;
    const candles = this.#candles;
    if (!symbol || this.view.status !== 'ready' || !candles) return;
    const quote = quotes.findLast((q) => q.symbol === symbol);
    const from = candles.length - 1;
    if (quote && this.#applyQuote(quote) && this.#chart) {
      this.#liveFrom = Math.min(this.#liveFrom, from);
      this.#cancelLive ??= afterPaint(() => {
        const first = this.#liveFrom;
        this.#dropLive();
        // Candles are only replaced at the end or added after it: those from the first touched on.
        for (const candle of this.#candles?.slice(first) ?? []) this.#chart?.update(candle);
        this.#describe();
      });
    }
  }

  /** Forgets live changes not drawn yet (a full draw, or no chart, supersedes them). */
  #dropLive(): void {
    this.#cancelLive?.();
    this.#cancelLive = undefined;
    this.#liveFrom = Infinity;
  }

  hostConnected(): void {
    this.#connected = true;
    for (const media of this.#media) media?.addEventListener('change', this.#onSchemeChange);
    if (!this.#settings || this.#settings.mode === 'none') return;
    // Rebuilt after a re-mount: the candles kept (and the history cache) spare a request.
    if (this.view.status === 'ready' && this.#candles) this.#host.requestUpdate();
    else void this.#load();
  }

  hostUpdated(): void {
    this.#ensureChart();
    if (this.#themeDirty) this.#applyTheme();
  }

  hostDisconnected(): void {
    this.#connected = false;
    // Nothing left waiting: a board shown again later makes its chart without waiting.
    this.#release();
    for (const media of this.#media) media?.removeEventListener('change', this.#onSchemeChange);
    // Nothing is loaded or retried while detached; a re-mount loads again at once (hostConnected).
    if (this.view.status !== 'ready') this.#stop();
    if (this.view.status === 'loading') this.view.status = 'idle';
    this.#destroyChart();
  }

  /**
   * Loads the history of the chart shown. A retry (`retry`) keeps the error shown until it
   * succeeds, and reports a failure again only when its code changed.
   */
  async #load(retry = false): Promise<void> {
    const s = this.#settings;
    const source = this.#source;
    if (!s || s.mode === 'none' || !source) return;
    // (a retry's own timer has gone)
    if (!retry) this.#stopRetrying();
    this.#loadAbort?.abort();
    const abort = new AbortController();
    this.#loadAbort = abort;
    const state = this.view;
    if (!retry) {
      state.status = 'loading';
      state.error = undefined;
      state.note = undefined;
      this.#host.requestUpdate();
    }

    let loaded: { candles: Candle[]; days: HistoryDays };
    try {
      loaded = await loadHistory(source, s.symbol, s.days, abort.signal);
    } catch (error) {
      if (isAbort(error, abort.signal)) return;
      if (!(retry && error instanceof PriceBoardError && error.code === state.error?.code)) this.fail(error);
      if (error instanceof PriceBoardError && !error.final) this.#retryLater(error);
      return;
    }
    if (abort.signal.aborted) return;
    this.#retries = 0;
    state.error = undefined;
    this.#candles = loaded.candles;
    state.shownDays = loaded.days;
    state.note = loaded.days !== s.days ? spanNote(s.days, loaded.days) : undefined;
    state.status = 'ready';
    const latest = this.#latest(s.symbol);
    if (latest) this.#applyQuote(latest);
    this.#draw();
    this.#host.requestUpdate();
  }

  /** Shows `error` in the chart area, and fires `price-board-error`. */
  fail(error: unknown): void {
    const e =
      error instanceof PriceBoardError
        ? error
        : new PriceBoardError('bad_response', `Chart failed: ${(error as Error)?.message ?? String(error)}`, {
            cause: error,
          });
    this.view.status = 'error';
    this.view.error = e;
    this.#candles = undefined;
    this.view.description = '';
    this.#dropLive();
    this.#chart?.setData([]);
    reportError(this.#host, e);
    this.#host.requestUpdate();
  }

  /** Loads again later, while the board stays connected and shows the same chart. */
  #retryLater(error: PriceBoardError): void {
    if (!this.#connected || this.#cancelRetry) return;
    const delay = Math.max(backoffDelay(this.#retries++, HISTORY_RETRY, 'equal'), error.retryAfterMs ?? 0);
    this.#cancelRetry = startTimer(() => {
      this.#cancelRetry = undefined;
      if (this.#connected) void this.#load(true);
    }, delay);
  }

  #stopRetrying(): void {
    this.#cancelRetry?.();
    this.#cancelRetry = undefined;
    this.#retries = 0;
  }

  /** Cancels the load under way and any retry. */
  #stop(): void {
    this.#stopRetrying();
    this.#loadAbort?.abort();
  }

  /** Moves the candles to `quote`; false when it changed nothing drawable. */
  #applyQuote(quote: Quote): boolean {
    const candles = this.#candles;
    const days = this.view.shownDays;
    if (!candles?.length || !days) return false;
    try {
      const before = candles.at(-1);
      applyQuoteToCandles(candles, Number(quote.price), Date.parse(quote.updated_at) / 1000, intervalFor(days));
      return candles.at(-1) !== before;
    } catch {
      return false; // an unreadable live value never breaks the chart
    }
  }

  /** Full replace: history loaded, span or unit changed. */
  #draw(): void {
    this.#dropLive();
    if (!this.#chart || !this.#candles || this.view.status !== 'ready') return;
    this.#chart.setPriceFormatter(chartPriceFormatter(this.#settings));
    this.#chart.setData(this.#candles);
    this.#describe();
    // lightweight-charts draws in the next frame: the chart shows once that frame is painted.
    afterPaint(() => this.#find('.chart-canvas')?.style.removeProperty('visibility'));
  }

  #describe(): void {
    const text = this.#chart?.describeLast() ?? '';
    if (text !== this.view.description) {
      this.view.description = text;
      this.#host.requestUpdate();
    }
  }

  /** Whether a chart is to be shown and not made yet. */
  #wantsChart(): boolean {
    const s = this.#settings;
    return this.#connected && !!s && s.mode !== 'none' && !this.#chart;
  }

  #ensureChart(): void {
    if (!this.#wantsChart() || this.#creating) return;
    const container = this.#find('.chart-canvas');
    if (!container) return;
    this.#creating = true;
    this.#rowsPainted.then(loadChartModule).then(
      (mod) => {
        this.#creating = false;
        if (!this.#wantsChart()) return;
        if (!container.isConnected || this.#find('.chart-canvas') !== container) {
          this.#host.requestUpdate(); // re-rendered meanwhile: try again with the new container
          return;
        }
        this.#themeDirty = false;
        // Hidden until its first draw is painted (#draw): lightweight-charts lays out its axes for
        // the candles in the frame it draws them (the time axis from 10 to 28 px high, the plot
        // moved under the legend), which no one should see move. (A property, not a style
        // attribute: a strict CSP allows it.)
        container.style.visibility = 'hidden';
        this.#chart = mod.createPriceChart({
          container,
          type: this.#settings!.mode === 'line' ? 'line' : 'candles',
          theme: readChartTheme(this.#find('.board')),
          formatPrice: chartPriceFormatter(this.#settings),
        });
        this.#draw();
      },
      (error: unknown) => {
        this.#creating = false;
        this.fail(chartLoadFailed(error));
      },
    );
  }

  #destroyChart(): void {
    this.#dropLive();
    this.#chart?.destroy();
    this.#chart = undefined;
  }

  #applyTheme(): void {
    this.#themeDirty = false;
    this.#chart?.setTheme(readChartTheme(this.#find('.board')));
  }
}
