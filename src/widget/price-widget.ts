/**
 * What `<price-ticker>` and `<price-converter>` share with the board: the connection attributes,
 * one subscription to the page's shared hub (`QuotesController`), the start batch, and the
 * `price-board-quotes` / `-status` / `-error` events.
 */
import { LitElement, type PropertyDeclarations, type PropertyValues } from 'lit';
import type { PriceBoardError } from '../shared/errors';
import type { ConnectionStatus, Quote } from '../shared/types';
import { CONNECTION_ATTRIBUTES, type AttributeProperties } from '../shared/attributes';
import {
  defaultsOf,
  invalidAttributeMessage,
  litProperties,
  readSettings,
  type BoardAttributes,
  type BoardSettings,
} from './attributes';
import { emit } from './emit';
import { DEFAULT_BASE_URL } from './module-origin';
import { QuotesController } from '../board/quotes-controller';
import { startTogether } from '../live/start-together';

type ConnectionKey = keyof typeof CONNECTION_ATTRIBUTES;
const CONNECTION_KEYS = Object.keys(CONNECTION_ATTRIBUTES) as ConnectionKey[];

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the table's properties (interface below)
export abstract class PriceWidget extends LitElement {
  // The connection attributes, from the attribute table (their docs are the table's).
  static override properties: PropertyDeclarations = litProperties(CONNECTION_ATTRIBUTES);

  constructor() {
    super();
    Object.assign(this, defaultsOf(CONNECTION_ATTRIBUTES), { baseUrl: DEFAULT_BASE_URL });
  }

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

  #values(): Record<ConnectionKey, unknown> {
    return Object.fromEntries(CONNECTION_KEYS.map((key) => [key, this[key]])) as Record<ConnectionKey, unknown>;
  }

  #readSettings(): void {
    const before = this.#read;
    const changed = new Set(CONNECTION_KEYS.filter((key) => !before || !Object.is(before[key], this[key])));
    if (before && changed.size === 0) return;
    const attrs: BoardAttributes = { chart: null, chartSymbol: null, days: null, ...this.#values() };
    const { settings, invalid } = readSettings(attrs, DEFAULT_BASE_URL, this.settings, changed);
    this.settings = settings;
    this.#read = this.#values();
    for (const attribute of invalid)
      emit(this, 'price-board-error', { code: 'invalid_attribute', message: invalidAttributeMessage(attribute) });
    const { baseUrl, apiKey, stream, streamUrl, pollInterval } = settings;
    this.live.configure({ baseUrl, apiKey, stream, streamUrl, pollInterval }, this.liveSymbols(settings));
  }
}

// The connection properties (`symbols`, `apiKey`, ...) as typed by the attribute table.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the table declares them; Lit defines them
export interface PriceWidget extends AttributeProperties<typeof CONNECTION_ATTRIBUTES> {}
