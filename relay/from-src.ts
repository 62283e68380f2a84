/**
 * Everything the relay takes from src/, in one place: the one file to follow when src/ moves. The
 * relay speaks the service contract with the same client, validation, stream reader and quote
 * merge as the widgets, never a second copy.
 */
export { PriceClient } from '../src/api/client';
export { readBounded } from '../src/api/read-bounded';
export type { FetchLike } from '../src/api/request';
export { parseRetryAfter } from '../src/api/retry-after';
export { fetchSymbols, parseSymbolsBody } from '../src/api/symbols';
export { LiveStream } from '../src/live/stream';
export { normalizeHistory } from '../src/model/history';
export { parsePoint } from '../src/model/history-point';
export { admitQuote, QuoteStore } from '../src/model/quote-store';
export { ERROR_MESSAGES } from '../src/shared/error-messages';
export { PriceBoardError } from '../src/shared/errors';
export type { Quote, SymbolInfo } from '../src/shared/types';
