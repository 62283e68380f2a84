import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { TICKER_ATTRIBUTES, type AttributeProperties, type SettingsOf } from '../shared/attribute-table';
import { litProperties } from '../widget/settings';
import { DASH, SKELETON, type RowView } from '../widget/row-view';
import { renderError } from '../widget/error-view';
import { MONEY_NAME } from '../format/number';
import { PriceWidget } from '../widget/price-widget';
import { StaleMark } from '../widget/stale-mark';
import { styles } from './price-ticker.styles';
import { Tape } from './tape';

/** A tape needs no faster text updates than this; fewer means fewer layouts under heavy load. */
const RENDER_GAP_MS = 500;

/**
 * Tickers with an update asked for by something other than new quotes (a property): not held
 * back. (A WeakSet, not a field: Lit sets properties before a subclass's fields exist.)
 */
const urgent = new WeakSet<object>();

/**
 * A one-line tape of live prices for site headers and footers: Persian, mirrored for RTL (items
 * enter at the left edge and move right, so they arrive in reading order).
 *
 * It shares the connection attributes and the per-key live data with every `<price-board>`,
 * `<price-ticker>` and `<price-converter>` on the page. The tape moves by transform only; a live
 * update changes a cell in place without restarting or jumping it. Hover, keyboard focus and the
 * pause button stop it; under `prefers-reduced-motion` it is a still strip that scrolls by hand.
 *
 * @summary Scrolling live price tape (Persian, RTL).
 * @tagname price-ticker
 *
 * @fires {CustomEvent<{ quotes: Quote[] }>} price-board-quotes - After each applied batch of quote changes, at most once per animation frame.
 * @fires {CustomEvent<{ status: ConnectionStatus }>} price-board-status - When the connection state changes: `loading`, `live`, `polling`, `reconnecting`, `offline` or `error`.
 * @fires {CustomEvent<{ code: ErrorCode; message: string; status?: number; attribute?: string; symbols?: string[] }>} price-board-error - On each failure the user should know of; `message` is Persian; `attribute` (`invalid_attribute`) and `symbols` (`unknown_symbol`) name what to fix; never holds the API key.
 *
 * @csspart ticker - The root; `dir="rtl"`, `lang="fa"`.
 * @csspart item - One per symbol: `data-symbol`, `data-direction` (`up`/`down`/`flat`). The moving copies repeat it.
 * @csspart title - An item's Persian title (a placeholder until it is known, never the id). A symbol the service does not know has no item.
 * @csspart price - An item's price: toman or rial, US dollars for `ons` and `silver_ounce`.
 * @csspart change - An item's signed change in percent, with ▲/▼.
 * @csspart error - The current error, in a visitor's Persian words; `data-code`. Never a configuration mistake (but when no symbol is known).
 *
 * @cssprop [--price-board-font=Vazirmatn, Vazir, Tahoma, Segoe UI, Noto Sans Arabic, Geeza Pro, DejaVu Sans, sans-serif] - Font family.
 * @cssprop [--price-board-bg=#ffffff] - Background (dark theme: #16191e).
 * @cssprop [--price-board-fg=#1b1f24] - Text colour (dark theme: #e6e9ee).
 * @cssprop [--price-board-muted=#59616e] - Titles and the pause button (dark theme: #9ba4b2).
 * @cssprop [--price-board-border=#d5dae1] - Border and item separators (dark theme: #323843).
 * @cssprop [--price-board-up=#0a7a3d] - Rising changes (dark theme: #4cc987).
 * @cssprop [--price-board-down=#c0262d] - Falling changes and errors (dark theme: #ff7b7b).
 * @cssprop [--price-board-accent=#1d5fc4] - Focus ring (dark theme: #7fb0ff).
 * @cssprop [--price-board-radius=12px] - Corner radius.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the table's properties (interface below)
export class PriceTicker extends PriceWidget {
  static override styles = styles;
  /**
   * The connection attributes and `speed` are read into its settings (an invalid one reported).
   * @internal
   */
  static override settingsAttributes = TICKER_ATTRIBUTES;

  /** The connection settings and `speed`. */
  declare protected settings: SettingsOf<typeof TICKER_ATTRIBUTES>;
  // The table's attributes: the connection ones and `speed` (their docs are the table's).
  static override properties: PropertyDeclarations = litProperties(TICKER_ATTRIBUTES);

  /** @internal */
  static override tag = 'price-ticker';

  readonly #tape = new Tape(this, {
    viewport: () => this.renderRoot?.querySelector<HTMLElement>('.viewport'),
    track: () => this.renderRoot?.querySelector<HTMLElement>('.track'),
    group: () => this.renderRoot?.querySelector<HTMLElement>('.group'),
  });

  /** That the prices shown are not current (offline, error, reconnecting for long). */
  readonly #stale = new StaleMark(this, this.live);

  #lastRender = 0;

  override requestUpdate(name?: PropertyKey, oldValue?: unknown, options?: object): void {
    if (name !== undefined) urgent.add(this);
    super.requestUpdate(name, oldValue, options as never);
  }

  /** Live quotes re-render the text at most every {@link RENDER_GAP_MS}. */
  protected override scheduleUpdate(): void | Promise<unknown> {
    const wait = this.#lastRender + RENDER_GAP_MS - performance.now();
    if (urgent.has(this) || wait <= 0) return super.scheduleUpdate();
    return new Promise((resolve) => setTimeout(resolve, wait)).then(() => super.scheduleUpdate());
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    this.#tape.speed = this.settings.speed;
  }

  protected override updated(): void {
    this.#lastRender = performance.now();
    urgent.delete(this);
  }

  protected override render() {
    const tape = this.#tape;
    const items = this.#items();
    const error = this.error;
    // An error replaces the tape only while it has nothing to show.
    const hasData = this.live.snapshot().size > 0;
    const stale = this.#stale.render();
    return html`<div part="ticker" class="ticker" dir="rtl" lang="fa" data-theme=${this.settings.theme} ?data-stale=${stale !== nothing}>
      ${
        tape.reduced
          ? nothing
          : // Drawn by CSS (two bars, or a triangle when paused): no emoji font needed.
            html`<button class="pause" type="button" aria-pressed=${tape.userPaused ? 'true' : 'false'}
            aria-label="توقف نوار قیمت" title=${tape.userPaused ? 'ادامه' : 'توقف'}
            @click=${() => tape.setUserPaused(!tape.userPaused)}><span class="icon" aria-hidden="true"></span></button>`
      }
      ${stale}
      ${
        (error && !hasData) || items.length === 0
          ? renderError(error, items.length === 0)
          : html`<div class="viewport ${tape.reduced ? 'still' : ''}" role="region" aria-label="نوار قیمت"
            @pointerenter=${() => tape.setHovered(true)} @pointerleave=${() => tape.setHovered(false)}
            @focusin=${() => tape.setFocused(true)}
            @focusout=${(e: FocusEvent) => this.#focusOut(e)}>
            <div class="track">
              ${Array.from({ length: tape.copies }, (_, copy) => this.#group(items, copy > 0))}
            </div>
          </div>`
      }
    </div>`;
  }

  #group(items: RowView[], copy: boolean) {
    // Toman or rial, said after each price shown (dollar-priced symbols say «دلار» in their price).
    const unit = MONEY_NAME[this.settings.unit];
    return html`<ul class="group" role=${copy ? 'presentation' : 'list'} aria-hidden=${copy ? 'true' : nothing} ?inert=${copy}>
      ${items.map(
        (
          item,
        ) => html`<li part="item" data-symbol=${item.symbol} data-direction=${item.direction} tabindex=${copy ? nothing : '0'}>
          <span part="title">${item.title || (item.loading ? SKELETON : DASH)}</span>
          <span part="price">${item.price}${item.ownUnit ? ` ${item.ownUnit}` : ''}</span>${item.ownUnit || !this.live.get(item.symbol) ? nothing : html`<span class="unit">${unit}</span>`}
          <span part="change"><span aria-hidden="true">${item.arrow}</span> ${item.change}</span>
        </li>`,
      )}
    </ul>`;
  }

  #items(): RowView[] {
    // No day: the tape shows no times, so it never pays for the date formatters (board/dates.ts).
    return this.rows({ unit: this.settings.unit, now: new Date(), day: undefined }, this.live.status === 'loading');
  }

  #focusOut(event: FocusEvent): void {
    const viewport = event.currentTarget as HTMLElement;
    if (!viewport.contains(event.relatedTarget as Node | null)) this.#tape.setFocused(false);
  }
}

// `speed`, as typed by the attribute table.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the table declares it; Lit defines it
export interface PriceTicker extends Pick<AttributeProperties<typeof TICKER_ATTRIBUTES>, 'speed'> {}
