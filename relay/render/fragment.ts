/**
 * A widget's fragment (DESIGN.md §13): the element with the query's attributes, its declarative
 * shadow root rendered from the relay's quotes, and those quotes as a JSON snapshot in light DOM
 * (data, never executed) with the stream event id they correspond to. The query is read as the
 * element reads its attributes (`query.ts`).
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
  TICKER_ATTRIBUTES,
  type AttributeSpec,
} from './from-widgets';
import type { FragmentQuery } from './query';
import { renderWidget } from './renderer';

/** The widgets a fragment renders, by the path's name, with their attribute tables. */
export const RENDERED_WIDGETS: Readonly<Record<string, Readonly<Record<string, AttributeSpec>>>> = {
  'price-board': BOARD_ATTRIBUTES,
  'price-ticker': TICKER_ATTRIBUTES,
  'price-converter': CONVERTER_ATTRIBUTES,
};

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
  // Every symbol it follows unknown: the status the client settles in once told so (it follows nothing).
  const idle = held.unknown.length > 0 && held.unknown.length === followedSymbols(tag, query).length;
  return renderWidget(tag, servedAttributes(query, held), {
    quotes: held.quotes,
    status: failing ? 'error' : idle ? 'polling' : 'live',
    delaySeconds: 0,
    unknown: held.unknown,
    // Nothing held yet: the visitors read the service's trouble, as the client would say it.
    error: failing ? new PriceBoardError('server', 'no quotes held yet') : undefined,
  });
}

/**
 * The symbols the element is given: the query's without those the service does not have (DESIGN.md
 * §9: a configuration mistake is the developer's, told in `X-Price-Board-Unknown`), or all of them
 * when none is served (without any, it would show its default symbols): it then says so itself, as
 * it would, asking nothing for them ({@link unknownFollowed}).
 */
function elementSymbols(query: FragmentQuery, held: HeldQuotes): string[] {
  const served = query.symbols.filter((id) => !held.unknown.includes(id));
  return served.length === 0 ? query.symbols : served;
}

/**
 * The ids the service does not have that the element taking over still follows (its symbols when
 * none is served, or a symbol it reads without showing it): the snapshot names them, so that the
 * client asks nothing for them (`live/hub.ts` `startFrom`).
 */
export function unknownFollowed(query: FragmentQuery, held: HeldQuotes): string[] {
  const kept = elementSymbols(query, held);
  return held.unknown.filter((id) => kept.includes(id) || !query.symbols.includes(id));
}

/** The query's attributes, its `symbols` those of {@link elementSymbols}. */
function servedAttributes(query: FragmentQuery, held: HeldQuotes): Array<[string, string]> {
  const symbols = elementSymbols(query, held);
  if (symbols.length === query.symbols.length) return query.attributes;
  return query.attributes.map(([name, value]) => (name === 'symbols' ? [name, symbols.join(',')] : [name, value]));
}

/** What a fragment's snapshot holds: `/v1/prices`'s answer as the relay would give it now. */
export interface Snapshot {
  /** The stream event id the quotes correspond to. */
  eventId: number;
  /** The answer's moment (ISO). */
  at: string;
  /** The quotes, as JSON. */
  quotes: string;
  /** Ids the element follows that the service does not have ({@link unknownFollowed}). */
  unknown: readonly string[];
}

/**
 * `markup` with its snapshot in light DOM: data, never executed (no `<` in it that could end the
 * script or open a comment): `{ event_id, unknown?, data: { at, delay_seconds, quotes } }`; then
 * `more` (the `seo=1` JSON-LD).
 */
export function withSnapshot(tag: string, markup: string, snapshot: Snapshot, more = ''): string {
  const { eventId, at, quotes, unknown } = snapshot;
  const ids = unknown.length > 0 ? `"unknown":${JSON.stringify(unknown)},` : '';
  const json = `{"event_id":${JSON.stringify(String(eventId))},${ids}"data":{"at":${JSON.stringify(at)},"delay_seconds":0,"quotes":${quotes}}}`;
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
