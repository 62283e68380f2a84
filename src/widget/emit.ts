/**
 * The board's public events and one helper to fire them. Every event bubbles and is composed, so
 * a listener on the embedding page (outside the shadow root) hears it.
 */
import type { ErrorDetail, PriceBoardError } from '../shared/errors';
import type { ConnectionStatus, Quote } from '../shared/types';

/** `detail` of each public event, by event name. */
export interface PriceBoardEventDetails {
  /** After each applied batch of quote changes, at most once per animation frame. */
  'price-board-quotes': { quotes: Quote[] };
  /** When the connection state changes. */
  'price-board-status': { status: ConnectionStatus };
  /** On each failure the user should know of; `message` is Persian. Never holds the API key. */
  'price-board-error': ErrorDetail;
  /** When the user changes the chart symbol (click, Enter or Space on a row). */
  'price-board-select': { symbol: string };
}

export type PriceBoardEventName = keyof PriceBoardEventDetails;

/** The typed `CustomEvent` of each public event, for `HTMLElementEventMap`. */
export type PriceBoardEventMap = {
  [K in PriceBoardEventName]: CustomEvent<PriceBoardEventDetails[K]>;
};

/** Failures already warned of on this page: one `console.warn` each, however many widgets. */
const warned = new Set<string>();

/**
 * Fires `price-board-error` with `error`'s detail (its informative Persian message). One only the
 * site's developer can fix (visitors read other words, or nothing: a configuration mistake) is
 * also written to the console once, in English with its status, attribute or ids, for the developer.
 */
export function reportError(host: EventTarget, error: PriceBoardError): void {
  const detail = error.toDetail();
  emit(host, 'price-board-error', detail);
  // The code, the Persian message, the status, the attribute or the ids: one warning for each.
  const id = Object.values(detail).join(' ');
  if (!error.for || warned.has(id)) return;
  warned.add(id);
  console.warn(`price-board: ${id}`, error.message);
}

/** Dispatches a public event from `host`: bubbles, composed, not cancelable. */
export function emit<K extends PriceBoardEventName>(
  host: EventTarget,
  name: K,
  detail: PriceBoardEventDetails[K],
): void {
  host.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
}
