/**
 * The public entry (`dist/price-board.js`): defines `<price-board>` (once, however often the
 * script is loaded) and exports the class and the public types.
 */
import { PriceBoard } from './board/price-board';
import type { PriceBoardEventMap } from './widget/emit';

PriceBoard.define();

export { PriceBoard };
export type { PriceBoardEventDetails, PriceBoardEventMap, PriceBoardEventName } from './widget/emit';
export type { ChartMode, HistoryDays, StreamMode, ThemeMode } from './shared/attribute-table';
export type { ConnectionStatus, DisplayUnit, Quote } from './shared/types';
export type { ErrorCode, ErrorDetail } from './shared/errors';

declare global {
  interface HTMLElementTagNameMap {
    'price-board': PriceBoard;
  }
  // Typed listeners: board.addEventListener('price-board-quotes', (e) => e.detail.quotes)
  interface HTMLElementEventMap {
    'price-board-quotes': PriceBoardEventMap['price-board-quotes'];
    'price-board-status': PriceBoardEventMap['price-board-status'];
    'price-board-error': PriceBoardEventMap['price-board-error'];
    'price-board-select': PriceBoardEventMap['price-board-select'];
  }
}
