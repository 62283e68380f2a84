import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import type { Quote } from '../shared/types';
import { DOLLAR_SYMBOLS } from '../shared/types';
import type { BoardSettings } from '../board/attributes';
import { defineOnce } from '../board/define';
import { renderError } from '../board/templates';
import { formatDecimal } from '../format/number';
import { PriceWidget } from '../widget/price-widget';
import { convert, USD, type Conversion } from './convert';
import { styles } from './price-converter.styles';

const UNIT_NAME = { toman: 'تومان', rial: 'ریال' } as const;

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
 * @fires {CustomEvent<{ code: ErrorCode; message: string; status?: number }>} price-board-error - On each failure the user should know of; `message` is Persian; never holds the API key.
 *
 * @csspart converter - The root; `dir="rtl"`, `lang="fa"`.
 * @csspart amount - The amount field (of the symbol, or of toman/rial when `reverse`).
 * @csspart symbol - The symbol picker, from `symbols`.
 * @csspart result - The result, with its unit; `data-state` is `ok`, `empty`, `invalid`, `waiting` or `no-price`.
 * @csspart error - The current connection error, in Persian; `data-code`.
 *
 * @cssprop [--price-board-font=Vazirmatn, Vazir, Tahoma, 'Segoe UI', system-ui, sans-serif] - Font family.
 * @cssprop [--price-board-bg=#ffffff] - Background (dark theme: #16191e).
 * @cssprop [--price-board-fg=#1b1f24] - Text colour (dark theme: #e6e9ee).
 * @cssprop [--price-board-muted=#59616e] - Labels and notes (dark theme: #9ba4b2).
 * @cssprop [--price-board-border=#d5dae1] - Borders (dark theme: #323843).
 * @cssprop [--price-board-down=#c0262d] - Input and connection errors (dark theme: #ff7b7b).
 * @cssprop [--price-board-accent=#1d5fc4] - Buttons and focus ring (dark theme: #7fb0ff).
 * @cssprop [--price-board-radius=12px] - Corner radius.
 */
export class PriceConverter extends PriceWidget {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    ...PriceWidget.properties,
    symbol: { reflect: true },
    amount: {},
    reverse: { type: Boolean, reflect: true },
  };

  /** Registers the element as `tag` (once, however often the script is loaded). */
  static define(tag = 'price-converter'): void {
    defineOnce(tag, this);
  }

  /** The symbol converted; one not in `symbols` falls back to the first. Set when the user picks one. */
  symbol: string | undefined = undefined;

  /**
   * The amount as typed (Persian, Arabic or Latin digits; `.` or `٫`). Follows the field.
   * @default '1'
   */
  amount = '1';

  /** Converts toman (or rial) into the symbol instead of the symbol into toman. */
  reverse = false;

  /** The result, as shown (Persian digits and its unit): what the copy button copies. */
  get resultText(): string {
    const result = this.#result();
    return result.ok ? `${formatDecimal(result.value)} ${this.#resultUnit()}` : '';
  }

  /** Whether the last copy worked, until the result changes. */
  #copied: 'yes' | 'no' | undefined;

  protected override liveSymbols(settings: BoardSettings): string[] {
    const dollar = settings.symbols.some((s) => DOLLAR_SYMBOLS.has(s));
    return dollar && !settings.symbols.includes(USD) ? [...settings.symbols, USD] : settings.symbols;
  }

  protected override render() {
    const s = this.settings;
    const symbol = this.#symbol();
    const quote = this.live.get(symbol);
    const title = quote?.title || symbol;
    const money = UNIT_NAME[s.unit];
    const result = this.#result();
    return html`<div part="converter" class="converter" dir="rtl" lang="fa" data-theme=${s.theme}>
      <div class="fields">
        <label>${this.reverse ? `مبلغ (${money})` : `مقدار ${title}`}
          <input part="amount" inputmode="decimal" autocomplete="off" dir="auto" .value=${this.amount}
            aria-invalid=${result.ok || result.reason !== 'invalid' ? 'false' : 'true'} aria-describedby="result"
            @input=${(e: Event) => (this.amount = (e.target as HTMLInputElement).value)} />
        </label>
        <label>نماد
          <select part="symbol" @change=${(e: Event) => (this.symbol = (e.target as HTMLSelectElement).value)}>
            ${s.symbols.map((id) => html`<option value=${id} ?selected=${id === symbol}>${this.live.get(id)?.title || id}</option>`)}
          </select>
        </label>
        <button type="button" class="swap" aria-pressed=${this.reverse ? 'true' : 'false'} @click=${() => (this.reverse = !this.reverse)}>
          ${this.reverse ? `${money} ← ${title}` : `${title} ← ${money}`}
        </button>
      </div>
      <div class="answer">
        <output part="result" id="result" aria-live="off" data-state=${result.ok ? 'ok' : result.reason}>
          ${result.ok
            ? html`<span class="value">${formatDecimal(result.value)}</span> ${this.#resultUnit()}`
            : result.message}
        </output>
        <button type="button" class="copy" ?disabled=${!result.ok} @click=${() => this.#copy()}>کپی</button>
        <span class="copied" role="status">${this.#copied === 'yes' ? 'کپی شد' : this.#copied === 'no' ? 'کپی نشد' : ''}</span>
      </div>
      ${result.ok && result.via !== undefined
        ? html`<div class="via">از راه دلار: هر دلار ${formatDecimal(result.via)} ${money}</div>`
        : nothing}
      ${renderError(this.error)}
    </div>`;
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (changed.has('amount') || changed.has('symbol') || changed.has('reverse')) this.#copied = undefined;
  }

  #symbol(): string {
    const symbols = this.settings.symbols;
    const wanted = this.symbol?.trim().toLowerCase();
    return wanted && symbols.includes(wanted) ? wanted : symbols[0]!;
  }

  #result(): Conversion {
    const quote: Quote | undefined = this.live.get(this.#symbol());
    return convert(this.amount ?? '', this.reverse ? 'from-money' : 'to-money', quote, this.live.get(USD), this.settings.unit);
  }

  #resultUnit(): string {
    return this.reverse ? this.live.get(this.#symbol())?.title || this.#symbol() : UNIT_NAME[this.settings.unit];
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
