/**
 * A widget's fragment (DESIGN.md §13): the element with the query's attributes, its declarative
 * shadow root rendered from the relay's quotes, and those quotes as a JSON snapshot in light DOM
 * (data, never executed) with the stream event id they correspond to. A bad query renders the
 * element showing the visitor's Persian words instead; the detail goes to the developer.
 */
import type { HeldQuotes } from '../api';
import {
  BOARD_ATTRIBUTES,
  CONVERTER_ATTRIBUTES,
  PriceBoardError,
  readSettings,
  TICKER_ATTRIBUTES,
  type AttributeSpec,
} from './from-widgets';
import { renderWidget } from './renderer';

/** The widgets a fragment renders, by the path's name, with their attribute tables. */
export const RENDERED_WIDGETS: Readonly<Record<string, Readonly<Record<string, AttributeSpec>>>> = {
  'price-board': BOARD_ATTRIBUTES,
  'price-ticker': TICKER_ATTRIBUTES,
  'price-converter': CONVERTER_ATTRIBUTES,
};

/** Longest value read from the query (as the embed page's); a longer one is not a setting. */
const MAX_VALUE_LENGTH = 2000;

/** The query, read against a widget's table. */
export interface FragmentQuery {
  /** `[attribute, value]` in the table's order: what the element is rendered with. */
  attributes: Array<[string, string]>;
  /** The symbols asked, as the element reads them. */
  symbols: string[];
  /** Attribute names whose value is invalid (never their values). */
  invalid: string[];
}

/**
 * The query's attributes of `table`, validated as the element validates them. The key and the
 * service address are never taken: the relay holds the key, and the element's address is the
 * relay that served its script.
 */
export function readQuery(table: Readonly<Record<string, AttributeSpec>>, params: URLSearchParams): FragmentQuery {
  const attributes: Array<[string, string]> = [];
  const byProperty: Record<string, string> = {};
  for (const [property, spec] of Object.entries(table)) {
    if (spec.kind === 'key' || spec.kind === 'base-url') continue;
    const value = params.get(spec.attribute);
    if (value === null || value.length > MAX_VALUE_LENGTH) continue;
    attributes.push([spec.attribute, value]);
    byProperty[property] = value;
  }
  const { settings, invalid } = readSettings(table, byProperty, '');
  const valid = attributes.filter(([name]) => !invalid.includes(name));
  return { attributes: valid, symbols: (settings as unknown as { symbols: string[] }).symbols, invalid };
}

/** JSON inside `<script>`: no `<` that could end it or open a comment. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** The fragment of `tag` showing `held` (the relay's quotes of the query's symbols). */
export function quotesFragment(tag: string, query: FragmentQuery, held: HeldQuotes): string {
  const snapshot = {
    event_id: String(held.eventId),
    data: { at: held.at, delay_seconds: 0, quotes: held.quotes },
  };
  const failing = held.quotes.length === 0 && held.unknown.length < query.symbols.length;
  return renderWidget(
    tag,
    query.attributes,
    {
      quotes: held.quotes,
      status: failing ? 'error' : 'live',
      delaySeconds: 0,
      unknown: held.unknown,
      // Nothing held yet: the visitors read the service's trouble, as the client would say it.
      error: failing ? new PriceBoardError('server', 'no quotes held yet') : undefined,
    },
    `<script type="application/json">${scriptJson(snapshot)}</script>`,
  );
}

/** The fragment of a bad query: the element, with its valid attributes, showing the visitor's words. */
export function badQueryFragment(tag: string, query: FragmentQuery): string {
  return renderWidget(
    tag,
    query.attributes,
    {
      quotes: [],
      status: 'error',
      delaySeconds: 0,
      // No rows: nothing the query named is shown, so no id stands where a visitor reads.
      unknown: query.symbols,
      error: new PriceBoardError('bad_request', `invalid attributes: ${query.invalid.join(', ')}`),
    },
    '',
  );
}
