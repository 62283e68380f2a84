/**
 * A widget's fragment (DESIGN.md §13): the element with the query's attributes, its declarative
 * shadow root rendered from the relay's quotes, and those quotes as a JSON snapshot in light DOM
 * (data, never executed) with the stream event id they correspond to. The query is read as the
 * element reads its attributes: an invalid value is left at its default.
 */
import type { HeldQuotes } from '../api';
import { etagOf } from '../etag';
import {
  BOARD_ATTRIBUTES,
  CONVERTER_ATTRIBUTES,
  formatJalaliDate,
  isStale,
  liveSymbolsOf,
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
  /**
   * `[attribute, value]` in the table's order, each value as the element reads it and none equal
   * to its default: what the element is rendered with, and the render cache's key, so queries the
   * element reads alike are one entry.
   */
  attributes: Array<[string, string]>;
  /** The symbols asked, as the element reads them. */
  symbols: string[];
  /** The query's settings as the element reads them (`widget/settings.ts`). */
  settings: Record<string, unknown>;
  /** Attribute names whose value is invalid (never their values). */
  invalid: string[];
}

/** A setting as attribute text: a list joined by commas, a number in its shortest form. */
function attributeText(value: unknown): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

/**
 * The query's attributes of `table`, validated and normalized as the element reads them. The key
 * and the service address are never taken: the relay holds the key, and the element's address is
 * the relay that served its script.
 */
export function readQuery(table: Readonly<Record<string, AttributeSpec>>, params: URLSearchParams): FragmentQuery {
  const byProperty: Record<string, string> = {};
  for (const [property, spec] of Object.entries(table)) {
    if (spec.kind === 'key' || spec.kind === 'base-url') continue;
    const value = params.get(spec.attribute);
    if (value !== null && value.length <= MAX_VALUE_LENGTH) byProperty[property] = value;
  }
  const read = readSettings(table, byProperty, '');
  const settings = read.settings as Record<string, unknown>;
  const symbols = settings.symbols as string[];
  const attributes: Array<[string, string]> = [];
  for (const [property, spec] of Object.entries(table)) {
    if (!(property in byProperty) || read.invalid.includes(spec.attribute)) continue;
    // A flag is its presence, whatever its value.
    if (spec.kind === 'flag') {
      attributes.push([spec.attribute, '']);
      continue;
    }
    const value = settings[property];
    // The chart symbol's default is the first symbol.
    const fallback = spec.kind === 'symbol' ? symbols[0] : spec.default;
    if (value === undefined || (fallback !== undefined && attributeText(value) === attributeText(fallback))) continue;
    attributes.push([spec.attribute, attributeText(value)]);
  }
  return { attributes, symbols, settings, invalid: read.invalid };
}

/**
 * What the fragment of `held` is made from besides the query: the quotes shown, the ids not served
 * and what the widget reads of the clock (the Tehran day, each quote's staleness). A render is
 * made again only when this changes; the answer's moment and event id are the snapshot's.
 */
export function renderVersion(held: HeldQuotes, now: Date): string {
  const stale = held.quotes.map((quote) => (isStale(quote, now) ? 1 : 0));
  return etagOf(JSON.stringify([held.quotes, held.unknown, formatJalaliDate(now), stale]));
}

/**
 * The symbols `tag` follows for the query: its own, and those it reads without showing them (the
 * board's bubble takes `ons` and `usd`, the converter `usd` for a dollar price), as the element
 * itself subscribes to them. The snapshot holds them all, so the client taking over asks for none.
 * Call after the widgets are loaded (`prepareRenderer`).
 */
export function followedSymbols(tag: string, query: FragmentQuery): string[] {
  return liveSymbolsOf(tag, query.settings);
}

/** Nothing of the query's served symbols is held: the render shows the service's trouble. */
export function showsNothing(query: FragmentQuery, held: HeldQuotes): boolean {
  return held.quotes.length === 0 && held.unknown.length < query.symbols.length;
}

/** The markup of `tag` showing `held` (the relay's quotes of the query's symbols), without its snapshot. */
export function quotesMarkup(tag: string, query: FragmentQuery, held: HeldQuotes): string {
  const failing = showsNothing(query, held);
  return renderWidget(tag, servedAttributes(query, held), {
    quotes: held.quotes,
    status: failing ? 'error' : 'live',
    delaySeconds: 0,
    unknown: held.unknown,
    // Nothing held yet: the visitors read the service's trouble, as the client would say it.
    error: failing ? new PriceBoardError('server', 'no quotes held yet') : undefined,
  });
}

/**
 * The query's attributes, its `symbols` without those the service does not have: the element
 * taking over asks nothing for them (DESIGN.md §9: a configuration mistake is the developer's, told
 * in `X-Price-Board-Unknown`). Unchanged when none is served: the element says so as it would.
 */
function servedAttributes(query: FragmentQuery, held: HeldQuotes): Array<[string, string]> {
  const served = query.symbols.filter((id) => !held.unknown.includes(id));
  if (served.length === 0 || served.length === query.symbols.length) return query.attributes;
  return query.attributes.map(([name, value]) => (name === 'symbols' ? [name, served.join(',')] : [name, value]));
}

/**
 * `markup` with its snapshot in light DOM: data, never executed (no `<` in it that could end the
 * script or open a comment), the quotes (`quotes`, JSON) with the stream event id they correspond
 * to and the answer's moment `at`; then `more` (the `seo=1` JSON-LD).
 */
export function withSnapshot(
  tag: string,
  markup: string,
  eventId: number,
  at: string,
  quotes: string,
  more = '',
): string {
  const json = `{"event_id":${JSON.stringify(String(eventId))},"data":{"at":${JSON.stringify(at)},"delay_seconds":0,"quotes":${quotes}}}`;
  // After the render, not a part of it: a part's marker hashes its content, so the same quotes at
  // another `at` would change the markup beside the snapshot too.
  const end = markup.lastIndexOf(`</${tag}>`);
  return `${markup.slice(0, end)}<script type="application/json">${json.replace(/</g, '\\u003c')}</script>${more}${markup.slice(end)}`;
}

/**
 * The element's module after its markup (unless the query says `script=0`: the page loads it
 * itself, or wants the rendered rows alone). Over a render, preloaded and run by `assets/takeover.js`
 * (src/embed/takeover.ts) once the page has painted: the rendered rows paint without waiting for
 * the module's evaluation. A bare element (`rendered` false: the render failed) has nothing to
 * paint before it: its module directly. From the relay's public address, so the element's default
 * `base-url` is the relay; `base` empty: root-relative (the page's server proxies the relay).
 */
export function moduleScript(tag: string, base: string, params: URLSearchParams, rendered: boolean): string {
  if (params.get('script') === '0') return '';
  if (!rendered) return `<script type="module" src="${base}/${tag}.js"></script>`;
  return `<link rel="modulepreload" href="${base}/${tag}.js"><script type="module" src="${base}/assets/takeover.js?${tag}"></script>`;
}
