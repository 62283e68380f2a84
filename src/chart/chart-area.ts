/**
 * The chart area's work, loaded lazily with the chart (see chart-controller.ts, which stays in the
 * initial module): fetches the history of the chart symbol (falling back 365 → 30 → 7 days when the
 * plan rejects a span), keeps the last candle following live quotes, drives the chart, and reports
 * failures in the chart area only.
 */
import type { ReactiveControllerHost } from 'lit';
import { backoffDelay } from '../api/backoff';
import { PriceBoardError } from '../shared/errors';
import { startTimer } from '../api/timer';
import { DOLLAR_SYMBOLS } from '../shared/types';
import type { Candle, Quote } from '../shared/types';
import type { ChartTheme, PriceChart } from './types';
import { formatAxisNumber, toPersianDigits } from '../format/number';
import { applyQuoteToCandles, intervalFor } from '../model/history';
import type { HistoryDays } from '../shared/attributes';
import { chartLoadFailed, type ChartHooks, type ChartModule, type ChartSettings, type ChartView } from './chart-view';
import { loadHistory, sourceFor, type HistorySource } from './history-source';

/**
 * A history load that failed for a reason that is not final (`ERROR_POLICY`) is tried again while
 * the board shows the same chart: 2.5 s, 5 s, 10 s… up to a minute (equal jitter, so boards of a
 * page spread out), never before a `Retry-After`.
 */
const HISTORY_RETRY = { baseMs: 2_500, maxMs: 60_000 };

const isAbort = (error: unknown, signal: AbortSignal): boolean =>
  signal.aborted || (error as Error)?.name === 'AbortError';

function spanNote(wanted: HistoryDays, shown: HistoryDays): string {
  if (wanted === 1)
    return `نمودار امروز از این سرویس در دسترس نیست؛ نمودار ${toPersianDigits(String(shown))} روز اخیر را نشان می‌دهد.`;
  return `طرح این کلید تاریخچهٔ ${toPersianDigits(String(wanted))} روزه را نمی‌دهد؛ نمودار ${toPersianDigits(String(shown))} روز اخیر را نشان می‌دهد.`;
}

/**
 * The chart area of one board; its controller forwards settings, quotes and the host's lifecycle,
 * and reads `view`, which only this writes.
 */
export class ChartArea {
  /** What the template shows (the controller's view, handed over when this was made). */
  readonly view: ChartView;
  readonly #host: ReactiveControllerHost;
  readonly #hooks: ChartHooks;
  /** The chart chunk, whose import started together with this one's. */
  readonly #chartModule: () => Promise<ChartModule>;
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
  #creating = false;
  #themeDirty = false;
  /** The system's colour scheme, and printing (the board prints light): the chart takes the board's colours again. */
  readonly #media = ['(prefers-color-scheme:dark)', 'print'].map((query) => globalThis.matchMedia?.(query));
  readonly #onSchemeChange = (): void => this.#applyTheme();

  constructor(
    host: ReactiveControllerHost,
    hooks: ChartHooks,
    view: ChartView,
    chartModule: () => Promise<ChartModule>,
  ) {
    this.#host = host;
    this.#hooks = hooks;
    this.view = view;
    this.#chartModule = chartModule;
  }

  /** Takes the board's current settings; fetches only what changed. */
  configure(next: ChartSettings): void {
    const prev = this.#settings;
    this.#settings = next;
    if (next.mode === 'none') {
      this.#stop();
      this.#destroyChart();
      this.view.status = 'idle';
      return;
    }
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

  /** Live quotes: the chart symbol's one moves the last candle (`update`, never a full redraw). */
  applyQuotes(quotes: readonly Quote[]): void {
    const symbol = this.#settings?.symbol;
    if (!symbol || this.view.status !== 'ready' || !this.#candles) return;
    const quote = quotes.findLast((q) => q.symbol === symbol);
    if (quote && this.#applyQuote(quote) && this.#chart) {
      this.#chart.update(this.#candles.at(-1)!);
      this.#describe();
    }
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
    const latest = this.#hooks.latest(s.symbol);
    if (latest) this.#applyQuote(latest);
    this.#draw();
    this.#host.requestUpdate();
  }

  /** Shows `error` in the chart area (the board fires `price-board-error`). */
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
    this.#chart?.setData([]);
    this.#hooks.onError(e);
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

  /**
   * The chart keeps the service's unit (rials, or dollars) and shows the board's: toman is a tenth
   * of a rial, as on the board, so a change of unit changes only the labels.
   */
  #priceFormatter(): (v: number) => string {
    const s = this.#settings;
    const dollar = DOLLAR_SYMBOLS.has(s?.symbol ?? '');
    const divisor = !dollar && s?.unit === 'toman' ? 10 : 1;
    return (v) => formatAxisNumber(v / divisor, dollar ? 2 : 0);
  }

  /** Full replace: history loaded, span or unit changed. */
  #draw(): void {
    if (!this.#chart || !this.#candles || this.view.status !== 'ready') return;
    this.#chart.setPriceFormatter(this.#priceFormatter());
    this.#chart.setData(this.#candles);
    this.#describe();
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
    const container = this.#hooks.container();
    if (!container) return;
    this.#creating = true;
    this.#chartModule().then(
      (mod) => {
        this.#creating = false;
        if (!this.#wantsChart()) return;
        if (!container.isConnected || this.#hooks.container() !== container) {
          this.#host.requestUpdate(); // re-rendered meanwhile: try again with the new container
          return;
        }
        this.#themeDirty = false;
        this.#chart = mod.createPriceChart({
          container,
          type: this.#settings!.mode === 'line' ? 'line' : 'candles',
          theme: this.#readTheme(),
          formatPrice: this.#priceFormatter(),
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
    this.#chart?.destroy();
    this.#chart = undefined;
  }

  /** Colours from the computed custom properties, so page overrides and the theme both apply. */
  #readTheme(): ChartTheme {
    const source = this.#hooks.themeSource();
    const style = source ? getComputedStyle(source) : undefined;
    const read = (name: string, fallback: string) => style?.getPropertyValue(name).trim() || fallback;
    return {
      background: read('--_bg', '#ffffff'),
      text: read('--_fg', '#1b1f24'),
      muted: read('--_muted', '#59616e'),
      border: read('--_border', '#d5dae1'),
      up: read('--_up', '#0a7a3d'),
      down: read('--_down', '#c0262d'),
      accent: read('--_accent', '#1d5fc4'),
      font: read('--_font', 'Vazirmatn, Tahoma, sans-serif'),
    };
  }

  #applyTheme(): void {
    this.#themeDirty = false;
    this.#chart?.setTheme(this.#readTheme());
  }
}
