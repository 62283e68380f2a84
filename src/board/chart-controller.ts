/**
 * The chart area as a Lit ReactiveController. It stays small because it is in the initial module:
 * when a chart is shown it loads the chart area's work (./chart-area: history, candles, the chart)
 * and, at the same time, the chart chunk, and hands them the board's settings, quotes and
 * lifecycle. The chart itself is made only after the board's first rows are painted (see
 * `rowsShown`). Nothing of the chart is loaded while `chart="none"`.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { PriceBoardError } from '../shared/errors';
import type { DisplayUnit, Quote } from '../shared/types';
import type { ChartMode, HistoryDays } from '../shared/attributes';
import type { ChartArea } from './chart-area';

/** What the chart shows; the board passes it on every update. */
export interface ChartSettings {
  mode: ChartMode;
  symbol: string;
  days: HistoryDays;
  unit: DisplayUnit;
  theme: string;
  baseUrl: string;
  apiKey: string | undefined;
}

/** What the board needs from its template. */
export interface ChartHooks {
  /** The element the chart fills (inside `part="chart"`), once rendered. */
  container(): HTMLElement | null | undefined;
  /** The element whose computed `--_*` custom properties give the chart its colours. */
  themeSource(): HTMLElement | null | undefined;
  /** The latest quote of a symbol, to bring fresh history up to now. */
  latest(symbol: string): Quote | undefined;
  /** A failure the user should know of (the board fires `price-board-error`). */
  onError(error: PriceBoardError): void;
}

export type ChartStatus = 'idle' | 'loading' | 'ready' | 'error';

/** What the template shows of the chart area. */
export interface ChartState {
  status: ChartStatus;
  /** The span shown, which may be shorter than asked when the plan rejects a longer one. */
  shownDays: HistoryDays | undefined;
  /** A visible Persian note, e.g. about the span fallback. */
  note: string | undefined;
  error: PriceBoardError | undefined;
  /** Text alternative of the chart (the latest candle in Persian words). */
  description: string;
}

export type ChartModule = typeof import('../chart/price-chart');

/** An import done once per page; a failed one may be tried again later. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () =>
    (loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    }));
}

/** The chart chunk (lightweight-charts). */
const loadChartModule = once(() => import('../chart/price-chart'));
const loadChartArea = once(() => import('./chart-area'));

/**
 * The rows come first: the chart (whose creation takes a style read, layout and canvas work) is
 * made only once the board's first rows are painted, or after this long without them (slow
 * prices, while the history is there).
 */
const ROWS_FIRST_MAX_WAIT_MS = 1_000;

/** Runs `fn` once the main thread is idle (after the current frame's work), or soon where unsupported. */
function whenIdle(fn: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(fn, { timeout: 100 });
  else setTimeout(fn, 0);
}

export class ChartController implements ReactiveController, ChartState {
  status: ChartStatus = 'idle';
  shownDays: HistoryDays | undefined;
  note: string | undefined;
  error: PriceBoardError | undefined;
  description = '';

  #settings: ChartSettings | undefined;
  #connected = false;
  #area: ChartArea | undefined;
  #loading = false;
  /** Resolves once the board's first rows are painted (see {@link rowsShown}). */
  readonly #rowsPainted: Promise<void>;
  #releaseChart!: () => void;
  #released = false;
  #frame = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly hooks: ChartHooks,
  ) {
    this.#rowsPainted = new Promise((resolve) => (this.#releaseChart = resolve));
    host.addController(this);
  }

  /**
   * The board rendered its first rows with data (or with an error instead): the chart may be made
   * once the frame showing them is painted, when the main thread is next idle. A hidden page
   * paints nothing (and runs no animation frames): no need to wait there.
   */
  rowsShown(): void {
    if (this.#released || this.#frame) return;
    if (globalThis.document?.visibilityState === 'hidden') this.#release();
    else this.#frame = requestAnimationFrame(() => whenIdle(() => this.#release()));
  }

  /** Takes the board's current settings; fetches only what changed. */
  configure(next: ChartSettings): void {
    this.#settings = next;
    if (this.#area) this.#area.configure(next);
    else if (next.mode === 'none') this.status = 'idle';
    else this.#start();
  }

  /** Live quotes: the chart symbol's one moves the last candle. */
  applyQuotes(quotes: readonly Quote[]): void {
    this.#area?.applyQuotes(quotes);
  }

  hostConnected(): void {
    this.#connected = true;
    if (this.#area) this.#area.hostConnected();
    else this.#start();
  }

  hostUpdated(): void {
    this.#area?.hostUpdated();
  }

  hostDisconnected(): void {
    this.#connected = false;
    // Nothing left waiting: a board shown again later makes its chart without waiting.
    this.#release();
    if (this.#area) this.#area.hostDisconnected();
    else if (this.status === 'loading') this.status = 'idle';
  }

  #release(): void {
    if (this.#released) return;
    this.#released = true;
    cancelAnimationFrame(this.#frame);
    clearTimeout(this.#timer);
    this.#releaseChart();
  }

  /** Loads the chart area's code (and the chart chunk beside it) once a chart is to be shown. */
  #start(): void {
    if (!this.#connected || this.#loading || !this.#settings || this.#settings.mode === 'none') return;
    this.#loading = true;
    this.status = 'loading';
    this.error = undefined;
    if (!this.#released) this.#timer ??= setTimeout(() => this.#release(), ROWS_FIRST_MAX_WAIT_MS);
    loadChartModule().catch(() => {}); // in parallel; the chart area reports a failure when it needs the chunk
    loadChartArea().then(
      ({ ChartArea }) => {
        this.#loading = false;
        // The chart is made when both its chunk and the board's first rows are there.
        this.#area = new ChartArea(this.host, this.hooks, this, () => this.#rowsPainted.then(loadChartModule));
        if (this.#settings) this.#area.configure(this.#settings);
        if (this.#connected) this.#area.hostConnected();
      },
      (error: unknown) => {
        this.#loading = false;
        if (!this.#connected) return;
        this.status = 'error';
        this.error = new PriceBoardError('network', 'The chart module failed to load', { cause: error });
        this.hooks.onError(this.error);
        this.host.requestUpdate();
      },
    );
  }
}
