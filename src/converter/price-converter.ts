import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import type { Quote } from '../shared/types';
import { DOLLAR_SYMBOLS } from '../shared/types';
import {
  CONVERTER_ATTRIBUTES,
  type AttributeProperties,
  type SettingsOf,
  type WidgetSettings,
} from '../shared/attribute-table';
import { litProperties } from '../widget/settings';
import { renderError } from '../widget/error-view';
import { formatDecimal, MONEY_NAME, toPersianDigits } from '../format/number';
import { PriceWidget } from '../widget/price-widget';
import { StaleMark } from '../widget/stale-mark';
import { convert, quantityName, USD, type Conversion } from './convert';
import { styles } from './price-converter.styles';

/** A symbol's title before it is known. */
const PLACEHOLDER = '…';
/** The result when no price will come: the error beside it says why. */
const NO_PRICE: Conversion = { ok: false, reason: 'no-price', message: '—' };

/**
 * Converts an amount of a symbol to toman (or rial) and back, with live prices: Persian, RTL.
 *
 * Arithmetic is exact on decimal strings (any digit count); a division is rounded half-up to 2
 * fraction digits (3 for grams and mesghals). Persian, Arabic and Latin digits and both decimal
 * separators are accepted. Dollar-priced symbols (`ons`, `silver_ounce`) convert through `usd`,
 * and the result says so. It shares the connection attributes and the per-key live data with
 * every `<price-board>`, `<price-ticker>` and `<price-converter>` on the page.
 *
 * @summary Live amount ↔ toman converter (Persian, RTL).
 * @tagname price-converter
 *
 * @fires {CustomEvent<{ quotes: Quote[] }>} price-board-quotes - After each applied batch of quote changes, at most once per animation frame.
 * @fires {CustomEvent<{ status: ConnectionStatus }>} price-board-status - When the connection state changes: `loading`, `live`, `polling`, `reconnecting`, `offline` or `error`.
 * @fires {CustomEvent<{ code: ErrorCode; message: string; status?: number; attribute?: string; symbols?: string[] }>} price-board-error - On each failure the user should know of; `message` is Persian; `attribute` (`invalid_attribute`) and `symbols` (`unknown_symbol`) name what to fix; never holds the API key.
 *
 * @csspart converter - The root; `dir="rtl"`, `lang="fa"`.
 * @csspart amount - The amount field (of the symbol, or of toman/rial when `reverse`).
 * @csspart symbol - The symbol picker, from `symbols` (but those the service does not know).
 * @csspart result - The result, with its unit; `data-state` is `ok`, `empty`, `invalid`, `waiting` or `no-price`.
 * @csspart error - The current connection error, in a visitor's Persian words; `data-code`. Never a configuration mistake (but when no symbol is known).
 *
 * @cssprop [--price-board-font=Vazirmatn, Vazir, Tahoma, Segoe UI, Noto Sans Arabic, Geeza Pro, DejaVu Sans, sans-serif] - Font family.
 * @cssprop [--price-board-bg=#ffffff] - Background (dark theme: #16191e).
 * @cssprop [--price-board-fg=#1b1f24] - Text colour (dark theme: #e6e9ee).
 * @cssprop [--price-board-muted=#59616e] - Labels and notes (dark theme: #9ba4b2).
 * @cssprop [--price-board-border=#d5dae1] - Borders (dark theme: #323843).
 * @cssprop [--price-board-down=#c0262d] - Input and connection errors (dark theme: #ff7b7b).
 * @cssprop [--price-board-accent=#1d5fc4] - Buttons and focus ring (dark theme: #7fb0ff).
 * @cssprop [--price-board-radius=12px] - Corner radius.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the table's properties (interface below)
export class PriceConverter extends PriceWidget {
  static override styles = styles;
  /**
   * The connection attributes and `symbol`, `amount`, `reverse` are read into its settings (an invalid one reported).
   * @internal
   */
  static override settingsAttributes = CONVERTER_ATTRIBUTES;
  /** The connection settings and `symbol`, `amount`, `reverse`. */
  declare protected settings: SettingsOf<typeof CONVERTER_ATTRIBUTES>;
  // The table's attributes: the connection ones, `symbol`, `amount`, `reverse` (their docs are the table's).
  static override properties: PropertyDeclarations = litProperties(CONVERTER_ATTRIBUTES);

  /** @internal */
  static override tag = 'price-converter';

  /** The result, as shown (Persian digits and its unit): what the copy button copies. */
  get resultText(): string {
    const result = this.#result();
    return result.ok ? `${formatDecimal(result.value)} ${this.#resultUnit()}` : '';
  }

  /** Whether the last copy worked, until the result changes. */
  #copied: 'yes' | 'no' | undefined;

  /** That the prices converted with are not current (offline, error, reconnecting for long). */
  readonly #stale = new StaleMark(this, this.live);

  protected override liveSymbols(settings: WidgetSettings): string[] {
    const dollar = settings.symbols.some((s) => DOLLAR_SYMBOLS.has(s));
    return dollar && !settings.symbols.includes(USD) ? [...settings.symbols, USD] : settings.symbols;
  }

  protected override render() {
    const s = this.settings;
    const known = this.knownSymbols();
    const symbol = this.#symbol();
    const title = this.#title(symbol);
    const quantity = quantityName(this.live.get(symbol));
    const money = MONEY_NAME[s.unit];
    const result = this.#result();
    const stale = this.#stale.render();
    return html`<div part="converter" class="converter" dir="rtl" lang="fa" data-theme=${s.theme} ?data-stale=${stale !== nothing}>
      <div class="fields">
        <label>${s.reverse ? `مبلغ (${money})` : `مقدار ${title}${quantity ? ` (${quantity})` : ''}`}
          <input part="amount" inputmode="decimal" autocomplete="off" dir="auto" .value=${this.#shownAmount()}
            aria-invalid=${result.ok || result.reason !== 'invalid' ? 'false' : 'true'} aria-describedby="result"
            @input=${(e: Event) => this.#typed((e.target as HTMLInputElement).value)} />
        </label>
        <label>نماد
          <select part="symbol" @change=${(e: Event) => (this.symbol = (e.target as HTMLSelectElement).value)}>
            ${known.map((id) => html`<option value=${id} ?selected=${id === symbol}>${this.#title(id)}</option>`)}
          </select>
        </label>
        <button type="button" class="swap" aria-pressed=${s.reverse ? 'true' : 'false'} @click=${() => (this.reverse = !this.reverse)}>
          ${s.reverse ? `${money} ← ${title}` : `${title} ← ${money}`}
        </button>
      </div>
      <div class="answer">
        <output part="result" id="result" aria-live="off" data-state=${result.ok ? 'ok' : result.reason}>
          ${
            result.ok
              ? html`<span class="value">${formatDecimal(result.value)}</span> ${this.#resultUnit()}`
              : result.message
          }
        </output>
        <button type="button" class="copy" ?disabled=${!result.ok} @click=${() => this.#copy()}>کپی</button>
        <span class="copied" role="status">${this.#copied === 'yes' ? 'کپی شد' : this.#copied === 'no' ? 'کپی نشد' : ''}</span>
      </div>
      ${
        result.ok && result.via !== undefined
          ? html`<div class="via">از راه دلار: هر دلار ${formatDecimal(result.via)} ${money}</div>`
          : nothing
      }
      ${stale}
      ${renderError(this.error, known.length === 0)}
    </div>`;
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (changed.has('amount') || changed.has('symbol') || changed.has('reverse')) this.#copied = undefined;
  }

  /** The picked symbol, of those the service knows ('' when it knows none). */
  #symbol(): string {
    const symbols = this.knownSymbols();
    const wanted = this.settings.symbol;
    return symbols.includes(wanted) ? wanted : (symbols[0] ?? '');
  }

  /** The service's title of `symbol`: a placeholder until it is known, never the id. */
  #title(symbol: string): string {
    return this.live.get(symbol)?.title || PLACEHOLDER;
  }

  #result(): Conversion {
    const quote: Quote | undefined = this.live.get(this.#symbol());
    const result = convert(
      this.amount ?? '', // `text`: the element reads it as typed
      this.settings.reverse ? 'from-money' : 'to-money',
      quote,
      this.live.get(USD),
      this.settings.unit,
    );
    // No price will come (a final error, or no symbol known): not «waiting» beside the error.
    const final = this.live.status === 'error' || this.knownSymbols().length === 0;
    return !result.ok && result.reason === 'waiting' && final ? NO_PRICE : result;
  }

  #resultUnit(): string {
    if (!this.settings.reverse) return MONEY_NAME[this.settings.unit];
    const symbol = this.#symbol();
    const quantity = quantityName(this.live.get(symbol));
    return quantity ? `${quantity} ${this.#title(symbol)}` : this.#title(symbol);
  }

  /** The amount as typed, kept as typed; one set by attribute or property, in Persian digits. */
  #asTyped: string | undefined;

  #typed(value: string): void {
    this.#asTyped = value;
    this.amount = value;
  }

  #shownAmount(): string {
    const amount = this.amount ?? '';
    return amount === this.#asTyped ? amount : toPersianDigits(amount);
  }

  async #copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.resultText);
      this.#copied = 'yes';
    } catch {
      this.#copied = 'no';
    }
    this.requestUpdate();
  }
}

// `symbol`, `amount` and `reverse`, as typed by the attribute table.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the table declares them; Lit defines them
export interface PriceConverter extends Pick<
  AttributeProperties<typeof CONVERTER_ATTRIBUTES>,
  'symbol' | 'amount' | 'reverse'
> {}
