/**
 * The chart area as a Lit ReactiveController. It stays small because the board loads it at start
 * (with its extras, `board/board-extras.ts`): when a chart is shown it loads the chart area's work (./chart-area: history, candles, the chart)
 * at once and the chart chunk once the board's first rows are in the DOM, and hands them the
 * board's settings, quotes and lifecycle. The chart itself is made only after the board's first rows are painted (see
 * `rowsShown`). Nothing of the chart is loaded while `chart="none"`.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Quote } from '../shared/types';
import type { ChartArea } from './chart-area';
import { chartLoadFailed, type ChartHooks, type ChartSettings, type ChartView } from './chart-view';
import { afterPaint } from '../shared/after-paint';
import { importOnce } from '../widget/import-once';

/** The chart chunk (lightweight-charts). */
const loadChartModule = importOnce(() => import('./price-chart'));
const loadChartArea = importOnce(() => import('./chart-area'));

/**
 * The rows come first: the chart (whose creation takes a style read, layout and canvas work) is
 * made only once the board's first rows are painted, or after this long without them (slow
 * prices, while the history is there).
 */
const ROWS_FIRST_MAX_WAIT_MS = 1_000;

export class ChartController implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #hooks: ChartHooks;
  /** The view until the chart area is loaded; from then on the area owns its own. */
  readonly #view: ChartView = {
    status: 'idle',
    shownDays: undefined,
    note: undefined,
    error: undefined,
    description: '',
  };
  #settings: ChartSettings | undefined;
  #connected = false;
  #area: ChartArea | undefined;
  #loading = false;
  /** Resolves once the board's first rows are painted (see {@link rowsShown}). */
  readonly #rowsPainted: Promise<void>;
  #releaseChart!: () => void;
  #released = false;
  #cancelWait: (() => void) | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(host: ReactiveControllerHost, hooks: ChartHooks) {
    this.#host = host;
    this.#hooks = hooks;
    this.#rowsPainted = new Promise((resolve) => (this.#releaseChart = resolve));
    host.addController(this);
  }

  /** What the template shows of the chart area. */
  get view(): Readonly<ChartView> {
    return this.#area?.view ?? this.#view;
  }

  /** The board rendered its first rows with data (or with an error instead): the chart may follow them. */
  rowsShown(): void {
    if (this.#released || this.#cancelWait) return;
    // The chart's chunk is fetched from now on: evaluated earlier, its 170 KB of code would hold up
    // the answer's rows on a slow CPU; the history, asked for by the chart area, takes as long.
    if (this.#settings?.mode !== 'none') loadChartModule().catch(() => {}); // the chart area reports a failure
    this.#cancelWait = afterPaint(() => this.#release());
  }

  /** Takes the board's current settings; fetches only what changed. */
  configure(next: ChartSettings): void {
    this.#settings = next;
    if (this.#area) this.#area.configure(next);
    else if (next.mode === 'none') this.#view.status = 'idle';
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
    else if (this.#view.status === 'loading') this.#view.status = 'idle';
  }

  #release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#cancelWait?.();
    clearTimeout(this.#timer);
    this.#releaseChart();
  }

  /** Loads the chart area's code (and the chart chunk beside it) once a chart is to be shown. */
  #start(): void {
    if (!this.#connected || this.#loading || !this.#settings || this.#settings.mode === 'none') return;
    this.#loading = true;
    this.#view.status = 'loading';
    this.#view.error = undefined;
    if (!this.#released) this.#timer ??= setTimeout(() => this.#release(), ROWS_FIRST_MAX_WAIT_MS);
    loadChartArea().then(
      ({ ChartArea }) => {
        this.#loading = false;
        // The chart is made when both its chunk and the board's first rows are there.
        this.#area = new ChartArea(this.#host, this.#hooks, { ...this.#view }, () =>
          this.#rowsPainted.then(loadChartModule),
        );
        if (this.#settings) this.#area.configure(this.#settings);
        if (this.#connected) this.#area.hostConnected();
      },
      (error: unknown) => {
        this.#loading = false;
        if (!this.#connected) return;
        const failure = chartLoadFailed(error);
        this.#view.status = 'error';
        this.#view.error = failure;
        this.#hooks.onError(failure);
        this.#host.requestUpdate();
      },
    );
  }
}
