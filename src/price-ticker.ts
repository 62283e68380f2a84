/**
 * The ticker's public entry (`dist/price-ticker.js`, npm `price-board/ticker`): defines
 * `<price-ticker>` (once, however often the script is loaded) and exports the class.
 */
import { PriceTicker } from './ticker/price-ticker';

PriceTicker.define();

export { PriceTicker };
export type { PriceBoardEventDetails, PriceBoardEventMap, PriceBoardEventName } from './widget/emit';

declare global {
  interface HTMLElementTagNameMap {
    'price-ticker': PriceTicker;
  }
}
