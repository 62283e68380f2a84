/**
 * Everything the relay takes from src/, in one place: src/ is being restructured by other work,
 * and this is the one file to follow it. The relay speaks the service contract with the same
 * client, validation, stream reader and quote merge as the widgets, never a second copy.
 */
export { PriceClient } from '../src/api/client';
export { PriceBoardError } from '../src/api/errors';
export type { FetchLike } from '../src/api/request';
export { parseRetryAfter } from '../src/api/retry-after';
export { fetchSymbols, parseSymbolsBody } from '../src/api/symbols';
export type { Quote, SymbolInfo } from '../src/api/types';
export { LiveStream } from '../src/live/stream';
export { QuoteStore } from '../src/model/quote-store';
