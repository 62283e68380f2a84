/**
 * The `spark` cells (DESIGN.md §10): a small line of each symbol's last 7 days. The rows come
 * first: a symbol's history is asked for only once its row has painted with a price (after the
 * host's update that showed it, the next frame and idle time), so it never competes with the
 * first prices; a symbol with no price (unknown to the service) is never asked for. The lines'
 * code (history, its parsing, the path) is a chunk of its own, loaded then: a board without the
 * column loads none of it. Lines are the page's (`SparkHistory`): a line another widget fetched
 * shows at once, with no request.
 */
import { html, nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { SparkDirection, Sparkline } from '../chart/sparkline';
import type { SparkHistory } from './spark-history';
import { afterPaint } from '../shared/idle-task';
import { importOnce } from './lazy-import';

type SparkLines = typeof import('./spark-history');
const loadLines = importOnce(() => import('./spark-history'));
/** The lines' chunk, once loaded. */
let lines: SparkLines | undefined;

/** The board's colours (the theme's own, else the custom property, else its light default). */
const STROKE: Record<SparkDirection, string> = {
  up: 'var(--_up, var(--price-board-up, #0a7a3d))',
  down: 'var(--_down, var(--price-board-down, #c0262d))',
  flat: 'var(--_muted, var(--price-board-muted, #59616e))',
};

/** A line's inline SVG, coloured by its direction (the same for every row and widget that shows it). */
const draw = (l: SparkLines, line: Sparkline): TemplateResult =>
  html`<svg
    viewBox="0 0 ${l.SPARK_WIDTH} ${l.SPARK_HEIGHT}"
    width=${l.SPARK_WIDTH}
    height=${l.SPARK_HEIGHT}
    aria-hidden="true"
    focusable="false"
    data-direction=${line.direction}
  >
    <path
      d=${line.path}
      fill="none"
      stroke=${STROKE[line.direction]}
      stroke-width="1.5"
      stroke-linejoin="round"
      stroke-linecap="round"
      vector-effect="non-scaling-stroke"
    ></path>
  </svg>`;
const drawn = new WeakMap<Sparkline, TemplateResult>();

/** What the cells need of their widget. */
export interface SparkSource {
  /** The service the lines come from. */
  connection(): { baseUrl: string; apiKey?: string };
  /** The latest quote of `symbol`: its row shows a price (read on every update: no copy of all quotes). */
  get(symbol: string): unknown;
}

export class SparkController implements ReactiveController {
  readonly #host: ReactiveControllerHost & HTMLElement;
  readonly #source: SparkSource;
  #wanted: readonly string[] = [];
  #wantedKey = '';
  #wantedCount = 0;
  /** Whether `want` was called in the current update. */
  #asked = false;
  /** What the watched set was made for: the symbols and the connection, and how many of them had a price. */
  #syncedKey = '';
  #syncedPriced = -1;
  /** The wanted symbols whose rows showed a price at the host's last render. */
  #rendered: ReadonlySet<string> = new Set();
  /** Those of them that the last frame painted (the rendered ones as that frame began). */
  #painted: ReadonlySet<string> = new Set();
  #history: SparkHistory | undefined;
  /** The lines this render's cells show (the service's, found once per render). */
  #shown: SparkHistory | undefined;
  readonly #watching = new Map<string, () => void>();
  #cancelPaint: (() => void) | undefined;
  readonly #changed = (): void => this.#host.requestUpdate();

  constructor(host: ReactiveControllerHost & HTMLElement, source: SparkSource) {
    this.#host = host;
    this.#source = source;
    host.addController(this);
  }

  /**
   * The symbols whose spark cells are shown: call on every `willUpdate` while the column is shown
   * (cheap when unchanged). An update without it means the column is not shown: nothing is watched.
   */
  want(symbols: string[]): void {
    this.#asked = true;
    const key = symbols.join(',');
    if (key === this.#wantedKey) return;
    this.#wantedKey = key;
    this.#wanted = [...symbols];
    this.#wantedCount = new Set(symbols).size;
  }

  /** The spark of `symbol`: an inline SVG coloured by direction, or `nothing` before its line came. */
  render(symbol: string): unknown {
    const line = this.#shown?.line(symbol);
    if (!lines || !line) return nothing;
    // A line changes hourly at most, and every frame of live updates renders every row.
    let svg = drawn.get(line);
    if (!svg) drawn.set(line, (svg = draw(lines, line)));
    return svg;
  }

  /** @internal */
  hostConnected(): void {
    // Back in the page: its rows are still painted.
    if (this.#wantedCount > 0) this.#check();
  }

  /** @internal */
  hostUpdate(): void {
    // Once per render, not per cell.
    const { baseUrl, apiKey } = this.#source.connection();
    this.#shown = lines && this.#wantedCount > 0 ? lines.SparkHistory.for(baseUrl, apiKey) : undefined;
  }

  /** @internal */
  hostUpdated(): void {
    if (!this.#asked) this.want([]);
    this.#asked = false;
    // What this render showed (unless every wanted symbol is watched: then nothing is due).
    if (this.#watching.size < this.#wantedCount)
      this.#rendered = new Set(this.#wanted.filter((symbol) => this.#source.get(symbol) !== undefined));
    this.#check();
  }

  /**
   * Syncs the watched symbols after the next paint, when they may be out of date: with the rows
   * that frame painted. A quote the widget holds but has not rendered yet (it arrived after the
   * frame began) waits for the next frame.
   */
  #check(): void {
    if (this.#cancelPaint || !this.#due()) return;
    this.#cancelPaint = afterPaint(
      () => {
        this.#cancelPaint = undefined;
        this.#sync();
      },
      () => (this.#painted = this.#rendered),
    );
  }

  /** @internal */
  hostDisconnected(): void {
    this.#cancelPaint?.();
    this.#cancelPaint = undefined;
    this.#unwatch([...this.#watching.keys()]);
    this.#syncedKey = '';
  }

  /** Whether the watched set may be out of date (cheap: every update of the host asks). */
  #due(): boolean {
    if (this.#wantedCount === 0 && this.#watching.size === 0) return false;
    if (this.#key() !== this.#syncedKey) return true;
    // Every wanted symbol watched: new quotes change nothing.
    if (this.#watching.size >= this.#wantedCount) return false;
    return this.#rendered.size !== this.#syncedPriced;
  }

  #key(): string {
    const { baseUrl, apiKey } = this.#source.connection();
    return `${this.#wantedKey}\n${baseUrl}\n${apiKey ?? ''}`;
  }

  /** Watches the wanted symbols whose rows show a price, and only those. */
  #sync(): void {
    if (!this.#host.isConnected) return;
    if (!lines) {
      // Synced once loaded, after the next paint again: rows that got their price while the chunk
      // loaded have not painted yet. A chunk that failed to load is tried again at the next update.
      loadLines().then(
        (loaded) => {
          lines = loaded;
          this.#check();
        },
        () => {},
      );
      return;
    }
    this.#syncedKey = this.#key();
    const priced = this.#wanted.filter((symbol) => this.#painted.has(symbol));
    this.#syncedPriced = priced.length;
    const { baseUrl, apiKey } = this.#source.connection();
    const history = lines.SparkHistory.for(baseUrl, apiKey);
    if (history !== this.#history) this.#unwatch([...this.#watching.keys()]);
    this.#history = history;
    const shown = new Set(priced);
    this.#unwatch([...this.#watching.keys()].filter((symbol) => !shown.has(symbol)));
    let drawn = false;
    for (const symbol of shown) {
      if (this.#watching.has(symbol)) continue;
      this.#watching.set(symbol, history.watch(symbol, this.#changed));
      drawn ||= history.line(symbol) !== undefined;
    }
    // Lines another widget fetched (or another connection's): drawn now.
    if (drawn) this.#host.requestUpdate();
    // Rows rendered since that frame began: after the next one.
    this.#check();
  }

  #unwatch(symbols: string[]): void {
    for (const symbol of symbols) {
      this.#watching.get(symbol)?.();
      this.#watching.delete(symbol);
    }
  }
}
