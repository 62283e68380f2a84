/**
 * The base of every widget (`<price-board>`, `<price-ticker>`, `<price-converter>`): the
 * connection attributes and the reading of the settings from an attribute table, one subscription
 * to the page's shared hub (`QuotesController`), the start batch, the `price-board-quotes` /
 * `-status` / `-error` events, `quotes`, `status`, `refresh()`, `define()` and the rows. A widget
 * adds its own tag, attributes, template and what it does with the quotes.
 */
import { adoptStyles, isServer, LitElement, type PropertyDeclarations, type PropertyValues } from 'lit';
import { PriceBoardError } from '../shared/errors';
import type { ConnectionStatus, Quote } from '../shared/types';
import {
  CONNECTION_ATTRIBUTES,
  type AttributeProperties,
  type AttributeSpec,
  type WidgetSettings,
} from '../shared/attribute-table';
import { defaultsOf, invalidAttributeMessage, litProperties, readSettings } from './settings';
import { emptyRow, quoteRow, type RowContext, type RowView } from './row-view';
import { emit, reportError } from './emit';
import { DEFAULT_BASE_URL } from './module-origin';
import { QuotesController } from './quotes-controller';
import { startTogether } from '../live/start-batch';

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the table's properties (interface below)
export abstract class PriceWidget extends LitElement {
  /**
   * The attributes read into `settings`: validated, an invalid one falling back to its default and
   * reported to the developer (`invalid_attribute`), never shown to visitors. The connection ones; a widget may read its own too (the board's).
   * @internal
   */
  static settingsAttributes: Readonly<Record<string, AttributeSpec>> = CONNECTION_ATTRIBUTES;

  // The connection attributes, from the attribute table (their docs are the table's).
  static override properties: PropertyDeclarations = litProperties(CONNECTION_ATTRIBUTES);

  /**
   * The widget's tag, which {@link define} registers by default (each widget sets its own).
   * @internal
   */
  declare static tag: string;

  /**
   * Registers the element as `tag` (by default its own); does nothing when the tag is already
   * defined, so loading the script twice is harmless. A class can back one tag only: another tag
   * gets a subclass.
   */
  static define(tag = this.tag): void {
    const registry: CustomElementRegistry = customElements;
    const element = this as unknown as CustomElementConstructor;
    if (!registry.get(tag)) registry.define(tag, registry.getName?.(element) ? class extends element {} : element);
  }

  constructor() {
    super();
    Object.assign(this, defaultsOf(this.#table()), { baseUrl: DEFAULT_BASE_URL });
  }

  /** The latest quote per symbol, in `symbols` order (a read-only snapshot). */
  get quotes(): ReadonlyMap<string, Quote> {
    const all = this.live.snapshot();
    const shown = this.shownQuotes([...all.values()]);
    return shown.length === all.size ? all : new Map(shown.map((q) => [q.symbol, q]));
  }

  /** The connection state, as in `price-board-status`. */
  get status(): ConnectionStatus {
    return this.live.status;
  }

  /** Re-fetches the quotes now. */
  refresh(): Promise<void> {
    return this.live.refresh();
  }

  protected readonly live = new QuotesController(this, (event) => {
    this.liveReported();
    if (event.kind === 'status') emit(this, 'price-board-status', { status: event.status });
    else if (event.kind === 'error') reportError(this, event.error);
    else {
      const quotes = this.shownQuotes(event.quotes);
      if (quotes.length > 0) emit(this, 'price-board-quotes', { quotes });
      this.quotesApplied(quotes);
    }
  });

  /**
   * Valid settings (invalid attributes fell back to their defaults): a new object each time they
   * are read anew. A widget that reads more attributes declares its own type (the board's).
   */
  protected settings!: WidgetSettings;
  /** The attribute values `settings` were read from. */
  #read: Record<string, unknown> | undefined;

  /**
   * The first prices request must not wait for the first render: a widget reads its settings and
   * subscribes with every widget connected in this task, in one microtask queued ahead of Lit's
   * first update (`startTogether`), then {@link started}. Attributes set right after the element
   * was added (same task) are read too.
   * @internal
   */
  override connectedCallback(): void {
    // Before Lit makes its render root: a shadow root already here is the relay's render (declarative).
    if (!this.renderRoot && this.shadowRoot) {
      this.#overServerRender = true;
      // The snapshot's reader is a chunk that only a page with the relay's render loads: the widget
      // starts (its quotes from the snapshot, or fetched without one) and updates once it is read.
      this.#snapshotRead = import('./rendered-snapshot')
        .then(
          ({ startFromRender }) => startFromRender(this, this.live),
          () => {}, // the quotes are fetched as usual
        )
        .then(() => this.#start());
    } else if (!this.#snapshotRead) this.#start(); // else it starts once the snapshot is read
    super.connectedCallback();
  }

  /** Over the relay's render: its snapshot read, which the start and the first update wait for. */
  #snapshotRead: Promise<void> | undefined;

  #start(): void {
    this.#snapshotRead = undefined;
    startTogether(() => {
      if (!this.isConnected) return;
      this.#readSettings();
      return () => {
        this.#adoptStyles();
        this.started();
      };
    });
  }

  protected override scheduleUpdate(): void | Promise<unknown> {
    // Set only until the start, which is before the first update.
    const read = this.#snapshotRead;
    return read ? read.then(() => super.scheduleUpdate()) : super.scheduleUpdate();
  }

  /**
   * The shadow root without its styles: parsing a widget's style sheet (once per page, the
   * board's is the largest) would hold up the first prices request, so the styles are adopted
   * once that request is out (`connectedCallback`), in the same microtask, before any frame; and
   * at the latest before the first render.
   * @internal
   */
  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    // A declarative root is kept: attachShadow would empty it now, a blank frame before the first render.
    return this.shadowRoot ?? this.attachShadow((this.constructor as typeof LitElement).shadowRootOptions);
  }

  /**
   * The shadow root still shows the relay's render (DESIGN.md §13): the first update renders over it.
   * A widget may hold that update until it can show all the render shows (the board's status and times).
   */
  protected get overServerRender(): boolean {
    return this.#overServerRender;
  }

  #overServerRender = false;

  protected override update(changed: PropertyValues): void {
    // The server's nodes go and the client's come in one task: no frame shows neither, and the
    // rows keep their height (Lit does not hydrate: it would cost the start set about 2 KB). Its
    // styles stay, for the element's life: they hold its chunks' rules (the spark's room, the
    // statuses' colours) while those chunks load here, and then repeat the adopted sheets' rules.
    if (this.#overServerRender) {
      const root = this.renderRoot as ShadowRoot;
      root.replaceChildren(...root.querySelectorAll('style'));
    }
    this.#overServerRender = false;
    super.update(changed);
  }

  #styled = false;

  #adoptStyles(): void {
    if (this.#styled) return;
    this.#styled = true;
    adoptStyles(this.renderRoot as ShadowRoot, (this.constructor as typeof LitElement).elementStyles);
  }

  protected override willUpdate(_changed: PropertyValues): void {
    // On the server there is no render root: the renderer writes the styles into the declarative shadow root.
    if (!isServer) this.#adoptStyles();
    this.#readSettings();
  }

  /** The prices requests of the widgets started with this one are out: what may load beside them. */
  protected started(): void {}

  /** Something came from the live data: quotes, a status or an error (before its event). */
  protected liveReported(): void {}

  /** A batch of applied quotes (at most one per frame), after `price-board-quotes`. */
  protected quotesApplied(_quotes: Quote[]): void {}

  /** Of the quotes of `liveSymbols`, those the widget shows (in `quotes` and `price-board-quotes`): all by default. */
  protected shownQuotes(quotes: Quote[]): Quote[] {
    return quotes;
  }

  /** The symbols to subscribe to: the widget's own (the converter adds `usd`). */
  protected liveSymbols(settings: WidgetSettings): string[] {
    return settings.symbols;
  }

  /** The current live error, if any. */
  protected get error(): PriceBoardError | undefined {
    return this.live.error;
  }

  /**
   * A row per symbol the service knows (an unknown one is the developer's mistake, not a visitor's
   * row): its quote's view, else a skeleton while `loading` or dashes.
   */
  protected rows(ctx: RowContext, loading: boolean): RowView[] {
    return this.knownSymbols().map((symbol) => {
      const quote = this.live.get(symbol);
      const missing = this.live.missing.has(symbol);
      if (!quote) return emptyRow(symbol, missing, loading);
      const view = quoteRow(quote, ctx);
      return missing ? { ...view, missing } : view;
    });
  }

  /** The widget's symbols but those the service does not know (a configuration mistake: no row). */
  protected knownSymbols(): string[] {
    return this.settings.symbols.filter((symbol) => !this.live.unknown.has(symbol));
  }

  #table(): Readonly<Record<string, AttributeSpec>> {
    return (this.constructor as typeof PriceWidget).settingsAttributes;
  }

  /**
   * Parses the attributes whose values changed since they were last read (all of them the first
   * time), reports invalid ones and hands the connection settings to the quotes.
   */
  #readSettings(): void {
    const table = this.#table();
    const keys = Object.keys(table);
    const values = this as unknown as Record<string, unknown>;
    // Properties set before the upgrade, still held by Lit (see heldByLit): set now, as Lit sets
    // them again at its first update, which comes after the first request.
    for (const [key, value] of heldByLit(this) ?? []) values[key] = value;
    const before = this.#read;
    const changed = new Set(keys.filter((key) => !before || !Object.is(before[key], values[key])));
    if (before && changed.size === 0) return;
    const { settings, invalid } = readSettings(table, values, DEFAULT_BASE_URL, this.settings, changed);
    this.settings = settings as WidgetSettings;
    this.#read = Object.fromEntries(keys.map((key) => [key, values[key]]));
    // Said to the developer only (the event, the console): the widget works with the default.
    for (const attribute of invalid) {
      const error = new PriceBoardError('invalid_attribute', `Invalid "${attribute}"; its default is used`, {
        messageFa: invalidAttributeMessage(attribute),
        data: { attribute },
      });
      reportError(this, error);
    }
    const { baseUrl, apiKey, stream, streamUrl, pollInterval } = this.settings;
    this.live.configure({ baseUrl, apiKey, stream, streamUrl, pollInterval }, this.liveSymbols(this.settings));
  }
}

/**
 * The properties set on an element before its class was defined (`el.apiKey = …` on an element
 * made before the module loaded): Lit takes them off the element at the upgrade and sets them again
 * at its first update, after the first prices request is out, which would then go without them (to
 * the default origin, with no key: a 401, an error event, a request spent). Where Lit holds them
 * meanwhile: `_$Ep` in its production build, `__instanceProperties` in its development build.
 */
const heldByLit = (el: object): Map<string, unknown> | undefined =>
  (el as { _$Ep?: Map<string, unknown> })._$Ep ??
  (el as { __instanceProperties?: Map<string, unknown> }).__instanceProperties;

// The connection properties (`symbols`, `apiKey`, ...) as typed by the attribute table.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the table declares them; Lit defines them
export interface PriceWidget extends AttributeProperties<typeof CONNECTION_ATTRIBUTES> {}
