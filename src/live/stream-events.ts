/** Reading the stream's event payloads (DESIGN.md §4: `quote` and `quotes`). */
import { PriceBoardError } from '../shared/errors';
import { isObject, parseQuote, parseQuotes } from '../api/validate';
import type { Quote } from '../shared/types';

/** The quotes an event carries, with the snapshot time of a `quotes` event. */
export interface StreamBatch {
  quotes: Quote[];
  at?: string;
}

/** The names the stream is known to send; any other event is ignored. */
export const QUOTE_EVENTS: ReadonlySet<string> = new Set(['quote', 'quotes']);

/**
 * The payload of a `quote` (one Quote) or `quotes` (`{ at, quotes }`, a bare array tolerated)
 * event, validated all-or-nothing. Throws `bad_response` on malformed data.
 */
export function parseStreamEvent(name: string, data: string): StreamBatch {
  let body: unknown;
  try {
    body = JSON.parse(data);
  } catch (cause) {
    throw new PriceBoardError('bad_response', `The stream sent a ${name} event that is not JSON`, { cause });
  }
  if (name === 'quote') return { quotes: [parseQuote(body, 'quote event')] };
  if (Array.isArray(body)) return { quotes: parseQuotes(body, 'quotes event') };
  if (!isObject(body))
    throw new PriceBoardError('bad_response', 'The stream sent a quotes event that is not an object');
  const quotes = parseQuotes(body.quotes, 'quotes event.quotes');
  return typeof body.at === 'string' ? { quotes, at: body.at } : { quotes };
}
