/**
 * What `<price-ticker>` and `<price-converter>` share with the board: the connection attributes,
 * one subscription to the page's shared hub (`QuotesController`), the start batch, and the
 * `price-board-quotes` / `-status` / `-error` events.
 */
import { LitElement, type PropertyDeclarations, type PropertyValues } from 'lit';
import type { PriceBoardError } from '../api/errors';
import type { ConnectionStatus, DisplayUnit, Quote } from '../api/types';
import { DEFAULTS, invalidAttributeMessage, readSettings, type BoardAttributes, type BoardSettings, type StreamMode, type ThemeMode } from '../board/attributes';
import { emit } from '../board/emit';
import { DEFAULT_BASE_URL } from '../board/module-origin';
import { QuotesController } from '../board/quotes-controller';
import { startTogether } from '../live/start-together';
import { CONNECTION_KEYS, CONNECTION_PROPERTIES, type ConnectionKey } from './connection';

export abstract class PriceWidget extends LitElement {
  static override properties: PropertyDeclarations = CONNECTION_PROPERTIES;

  /**
   * Comma-separated symbol ids, in this order; spaces and upper case tolerated, duplicates dropped.
   * @default 'usd,eur,gold_18,coin_emami,ons'
   * @attr symbols
   */
  symbols: string = DEFAULTS.symbols;

  /**
   * API key, sent only as the `X-API-Key` header (never in a URL, a log line or an event). Not reflected.
   * @attr api-key
   */
  apiKey: string | undefined = undefined;

  /**
   * Service address; `/v1/...` is appended.
   * @default the origin this module was loaded from
   * @attr base-url
   */
  baseUrl: string = DEFAULT_BASE_URL;

  /**
   * Live updates: `auto` (SSE, falling back to polling), `sse`, `poll` or `off`.
   * @default 'auto'
   * @attr stream
   */
  stream: StreamMode = DEFAULTS.stream;

  /**
   * SSE address. Default `{base-url}/v1/stream`.
   * @attr stream-url
   */
  streamUrl: string | undefined = undefined;

  /**
   * Seconds between polls when polling (at least 5); never faster than the plan allows.
   * @default 30
   * @attr poll-interval
   */
  pollInterval: number = DEFAULTS.pollInterval;

  /**
   * `toman` or `rial`; `ons` and `silver_ounce` are priced in US dollars.
   * @default 'toman'
   * @attr unit
   */
  unit: DisplayUnit = DEFAULTS.unit;

  /**
   * `light`, `dark` or `auto` (follows `prefers-color-scheme`, live).
   * @default 'auto'
   * @attr theme
   */
  theme: ThemeMode = DEFAULTS.theme;

  /** The latest quote per symbol, in `symbols` order (a read-only snapshot). */
  get quotes(): ReadonlyMap<string, Quote> {
    return this.live.snapshot();
  }

  /** The connection state, as in `price-board-status`. */
  get status(): ConnectionStatus {
    return this.live.status;
  }

  /** Re-fetches the quotes now. */
  refresh(): Promise<void> {
    return this.live.refresh();
  }

  protected readonly live = new QuotesController(this, {
    onQuotes: (quotes) => {
      emit(this, 'price-board-quotes', { quotes });
      this.quotesApplied(quotes);
    },
    onStatus: (status) => emit(this, 'price-board-status', { status }),
    onError: (error) => emit(this, 'price-board-error', error.toDetail()),
  });

  /** Valid settings (invalid attributes fell back to their defaults). */
  protected settings!: BoardSettings;
  #read: Partial<Record<ConnectionKey, unknown>> | undefined;

  /** @internal */
  override connectedCallback(): void {
    startTogether(() => {
      if (this.isConnected) this.#readSettings();
    });
    super.connectedCallback();
  }

  protected override willUpdate(_changed: PropertyValues): void {
    this.#readSettings();
  }

  /** The symbols to subscribe to: the widget's own (the converter adds `usd`). */
  protected liveSymbols(settings: BoardSettings): string[] {
    return settings.symbols;
  }

  /** A batch of applied quotes (at most one per frame). */
  protected quotesApplied(_quotes: Quote[]): void {}

  /** The current error to show: a live one, else none. */
  protected get error(): PriceBoardError | undefined {
    return this.live.error;
  }

  #values(): Pick<BoardAttributes, ConnectionKey> {
    return Object.fromEntries(CONNECTION_KEYS.map((key) => [key, this[key]])) as Pick<BoardAttributes, ConnectionKey>;
  }

  #readSettings(): void {
    const before = this.#read;
    const changed = new Set(CONNECTION_KEYS.filter((key) => !before || !Object.is(before[key], this[key])));
    if (before && changed.size === 0) return;
    const attrs = { chart: null, chartSymbol: null, days: null, ...this.#values() };
    const { settings, invalid } = readSettings(attrs, DEFAULT_BASE_URL, this.settings, changed);
    this.settings = settings;
    this.#read = this.#values();
    for (const attribute of invalid) emit(this, 'price-board-error', { code: 'invalid_attribute', message: invalidAttributeMessage(attribute) });
    const { baseUrl, apiKey, stream, streamUrl, pollInterval } = settings;
    this.live.configure({ baseUrl, apiKey, stream, streamUrl, pollInterval }, this.liveSymbols(settings));
  }
}
