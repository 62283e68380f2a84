/**
 * The converter's public entry (`dist/price-converter.js`, npm `price-board/converter`): defines
 * `<price-converter>` (once, however often the script is loaded) and exports the class.
 */
import { PriceConverter } from './converter/price-converter';

PriceConverter.define();

export { PriceConverter };
export type { PriceBoardEventDetails, PriceBoardEventMap, PriceBoardEventName } from './widget/emit';

declare global {
  interface HTMLElementTagNameMap {
    'price-converter': PriceConverter;
  }
}
