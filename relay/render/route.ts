/**
 * `GET /render/{widget}?{attributes}` (DESIGN.md §13): a widget's first paint as HTML, rendered
 * from the quotes the relay holds, once per normalized query and change (`render-cache.ts`).
 * Always a 200 fragment with `Cache-Control`, an `ETag` and 304. As the element does (DESIGN.md §9),
 * an invalid attribute value renders with its default and an unknown symbol without its row, each
 * said to the developer only (`X-Price-Board-Invalid`, `X-Price-Board-Unknown`); missing quotes
 * show the visitor's Persian words, upstream trouble the last good render marked stale, and a render
 * that throws the bare element; never a 5xx page inside a host's HTML.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CACHING, sendCacheable } from '../api-answers';
import type { HeldQuotes } from '../api';
import { etagOf } from '../etag';
import { detailHeader, sendRaw } from '../http';
import type { Metrics } from '../metrics';
import {
  followedSymbols,
  moduleScript,
  quotesMarkup,
  RENDERED_WIDGETS,
  renderVersion,
  showsNothing,
  unknownFollowed,
  withSnapshot,
  type Snapshot,
} from './fragment';
import { namedPieces, readQuery, type FragmentQuery } from './query';
import type { Quote } from '../from-src';
import type { Render, RenderCache } from './render-cache';
import { readNote } from './read-note';
import { jsonLd } from './seo';
import { bareElement, prepareRenderer } from './renderer';

const HTML = { 'Content-Type': 'text/html; charset=utf-8' };

/** What answering fragments needs of the relay. */
export interface FragmentDeps {
  cache: RenderCache;
  metrics: Metrics;
  /** The relay's quotes of `ids` (undefined: not even a symbol list). */
  held: (ids: readonly string[]) => Promise<HeldQuotes | undefined>;
  now: () => number;
  /** Where the fragments' module scripts come from (PUBLIC_URL; empty: root-relative). */
  scriptBase: string;
}

/** The widget a `/render/...` path names, or undefined (not a fragment: a 404 as any path). */
export function renderedWidget(path: string): string | undefined {
  const m = /^\/render\/([a-z-]+)$/.exec(path);
  return m && Object.hasOwn(RENDERED_WIDGETS, m[1]!) ? m[1] : undefined;
}

/** The render cache's gauges: its bytes against its bound. */
export function watchRenderCache(metrics: Metrics, cache: RenderCache): void {
  metrics.gauge('relay_render_cache_bytes', 'Bytes held by the fragment render cache.', () => cache.bytes);
  metrics.gauge('relay_render_cache_max_bytes', 'The fragment render cache’s byte bound.', () => cache.maxBytes);
}

/** The error of a failed render as one header line (the developer's detail). */
function errorHeader(error: unknown): string {
  return detailHeader(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
}

/**
 * A widget's render for a query, before it is sent: the element (rendered, or bare after a failed
 * render) and how it may be cached.
 */
export interface RenderedElement {
  markup: string;
  /** False: not to be kept by any cache (a failed render's bare element). */
  cacheable: boolean;
  /** Seconds since its quotes were current, when stale. */
  age?: number;
  /**
   * The developer's detail: `X-Price-Board-Invalid` (attributes whose value is invalid or too long,
   * never their values), `X-Price-Board-Invalid-Symbols` (the pieces of `symbols` that are no id,
   * which the element leaves out), `X-Price-Board-Unknown` (symbols the service does not have),
   * `X-Price-Board-Render-Error`.
   */
  headers: Record<string, string>;
}

/**
 * Renders `tag` for the query of `url` from the render cache: with the query's valid attributes (an
 * invalid one is left at its default, as the element reads it), upstream trouble the last good
 * render marked stale, a render that throws the bare element.
 * `seo=1` adds the quotes as JSON-LD beside the snapshot.
 */
export async function renderElement(url: URL, tag: string, deps: FragmentDeps): Promise<RenderedElement> {
  const { cache, metrics } = deps;
  const query = readQuery(RENDERED_WIDGETS[tag]!, url.searchParams);
  const seo = url.searchParams.get('seo') === '1';
  const key = `${tag}?${new URLSearchParams(query.attributes).toString()}`;
  /** The render of `key` at `version`, counted when made. */
  const renderOf = (
    cacheKey: string,
    version: string,
    dataAt: number,
    make: () => Omit<Render, 'version' | 'dataAt'>,
  ) =>
    cache.render(cacheKey, version, dataAt, () => {
      metrics.inc('relay_renders_total', 'Fragments rendered (each normalized query once per change).', {
        widget: tag,
      });
      return make();
    });
  /**
   * The render with its snapshot (and JSON-LD) in light DOM; after a ticker or converter, when its
   * prices were read, for a page without scripts (the board's status line says it).
   */
  const complete = (render: Render, snapshot: Snapshot): string => {
    const noted = tag !== 'price-board';
    const quotes = seo || noted ? (JSON.parse(snapshot.quotes) as Quote[]) : [];
    const markup = withSnapshot(tag, render.markup, snapshot, seo ? jsonLd(shownOf(quotes)) : '');
    return noted ? markup + readNote(quotes, query.symbols) : markup;
  };
  /** Of the snapshot's quotes, those the element shows (the JSON-LD says what the page shows). */
  const shownOf = (quotes: Quote[]): Quote[] => quotes.filter((q) => query.symbols.includes(q.symbol));
  try {
    await prepareRenderer();
    const held = await deps.held(followedSymbols(tag, query));
    const now = deps.now();
    const headers = developerDetail(query, held);
    if (!held || showsNothing(query, held)) {
      // Upstream trouble: the last good render, marked by its quotes' age.
      const last = await cache.last(key);
      if (last?.quotes !== undefined && last.quotes !== '[]') {
        const age = Math.max(0, Math.round((now - last.dataAt) / 1000));
        const at = new Date(now).toISOString();
        const snapshot = { eventId: last.eventId, at, quotes: last.quotes, unknown: [] };
        return { markup: complete(last, snapshot), cacheable: true, age, headers };
      }
    }
    const shown = held ?? { eventId: 0, at: new Date(now).toISOString(), quotes: [], unknown: [] };
    const dataAt = now - (shown.ageSeconds ?? 0) * 1000;
    // The system clock, as the widgets read it (the relay's `now` may be a test's).
    const render = await renderOf(key, renderVersion(shown, new Date()), dataAt, () => ({
      eventId: shown.eventId,
      quotes: JSON.stringify(shown.quotes),
      markup: quotesMarkup(tag, query, shown),
    }));
    // The render's own quotes: the same as those held now, since its version holds them.
    const unknown = unknownFollowed(query, shown);
    const markup = complete(render, { eventId: shown.eventId, at: shown.at, quotes: render.quotes, unknown });
    return { markup, cacheable: true, age: shown.ageSeconds, headers };
  } catch (error) {
    // A page including this must still render: the bare element, which then fetches as usual.
    metrics.inc('relay_render_failures_total', 'Fragment renders that threw (answered with the bare element).', {
      widget: tag,
    });
    return {
      markup: bareElement(tag, query.attributes),
      cacheable: false,
      headers: { 'X-Price-Board-Render-Error': errorHeader(error) },
    };
  }
}

/**
 * What the element would say to the developer of this query (DESIGN.md §9), as headers: the
 * attributes whose value is invalid (never their values) and the query's symbols the service does
 * not have. The visitor sees neither: the render uses the default, and no row for such a symbol.
 */
function developerDetail(query: FragmentQuery, held: HeldQuotes | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (query.invalid.length > 0) headers['X-Price-Board-Invalid'] = query.invalid.join(',');
  if (query.rejectedSymbols.length > 0) headers['X-Price-Board-Invalid-Symbols'] = namedPieces(query.rejectedSymbols);
  const unknown = held?.unknown.filter((id) => query.symbols.includes(id)) ?? [];
  if (unknown.length > 0) headers['X-Price-Board-Unknown'] = unknown.join(',');
  return headers;
}

/**
 * Sends `body` (a rendered element in its fragment or page) as `text/html`, cached as the render
 * allows. Its ETag is the body's own: a new snapshot (another moment or event id) is a new body, so
 * a cache revalidating a fragment never keeps one past its freshness; only the same bytes get a 304.
 */
export function sendRendered(req: IncomingMessage, res: ServerResponse, rendered: RenderedElement, body: string): void {
  const headers = { ...HTML, ...rendered.headers };
  // A failed render is not kept by any cache (`no-store`): the next request renders again.
  if (!rendered.cacheable) return sendRaw(res, 200, body, headers);
  sendCacheable(req, res, body, CACHING.render, rendered.age, etagOf(body), headers);
}

/** Answers a fragment of `tag`: the element, then its module script unless `script=0`. */
export async function sendFragment(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  tag: string,
  deps: FragmentDeps,
): Promise<void> {
  const rendered = await renderElement(url, tag, deps);
  // A render not to be cached is the bare element of a failed one.
  const script = moduleScript(tag, deps.scriptBase, url.searchParams, rendered.cacheable);
  sendRendered(req, res, rendered, rendered.markup + script);
}
