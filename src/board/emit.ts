/**
 * The board's public events and one helper to fire them. Every event bubbles and is composed, so
 * a listener on the embedding page (outside the shadow root) hears it.
 */
import type { ErrorDetail } from '../shared/errors';
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

/** Dispatches a public event from `host`: bubbles, composed, not cancelable. */
export function emit<K extends PriceBoardEventName>(host: EventTarget, name: K, detail: PriceBoardEventDetails[K]): void {
  host.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
}
