/**
 * `GET /render/{widget}?{attributes}` (DESIGN.md §13): a widget's first paint as HTML, rendered
 * from the quotes the relay holds, once per normalized query and change (`render-cache.ts`).
 * Always a 200 fragment with `Cache-Control`, an `ETag` and 304: a bad query or missing quotes show
 * the visitor's Persian words, upstream trouble the last good render marked stale, and a render
 * that throws the bare element; never a 5xx page inside a host's HTML.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CACHING, sendCacheable } from '../api-answers';
import type { HeldQuotes } from '../api';
import { etagOf } from '../etag';
import { sendRaw } from '../http';
import type { Metrics } from '../metrics';
import {
  badQueryFragment,
  moduleScript,
  quotesMarkup,
  readQuery,
  RENDERED_WIDGETS,
  renderVersion,
  showsNothing,
  withSnapshot,
} from './fragment';
import type { Render, RenderCache } from './render-cache';
import { bareElement, prepareRenderer } from './renderer';

const HTML = { 'Content-Type': 'text/html; charset=utf-8' };
/** The version of every bad query's render: it shows no quotes, so nothing makes it again. */
const BAD_QUERY = 'bad-query';

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

/** The error of a failed render as one header line: printable ASCII, short (the developer's detail). */
function errorHeader(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.replace(/[^\x20-\x7e]+/g, ' ').slice(0, 200);
}

/** Answers a fragment of `tag`. */
export async function sendFragment(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  tag: string,
  deps: FragmentDeps,
): Promise<void> {
  const { cache, metrics } = deps;
  const query = readQuery(RENDERED_WIDGETS[tag]!, url.searchParams);
  const script = moduleScript(tag, deps.scriptBase, url.searchParams);
  const key = `${tag}?${new URLSearchParams(query.attributes).toString()}`;
  /** The render of `key` at `version`, counted when made. */
  const renderOf = (
    cacheKey: string,
    version: string,
    dataAt: number,
    make: () => Omit<Render, 'version' | 'dataAt' | 'etag'>,
  ) =>
    cache.render(cacheKey, version, dataAt, () => {
      metrics.inc('relay_renders_total', 'Fragments rendered (each normalized query once per change).', {
        widget: tag,
      });
      const made = make();
      // Weak: the snapshot's moment differs per answer of the same render.
      return { ...made, etag: `W/${etagOf(made.markup)}` };
    });
  try {
    await prepareRenderer();
    if (query.invalid.length > 0) {
      // The developer's detail: which attributes (never their values), beside the visitor's words.
      const invalid = query.invalid.join(',');
      const bad = await renderOf(`${key}&invalid=${invalid}`, BAD_QUERY, deps.now(), () => ({
        eventId: 0,
        quotes: '[]',
        markup: badQueryFragment(tag, query),
      }));
      return sendCacheable(req, res, bad.markup + script, CACHING.render, undefined, bad.etag, {
        ...HTML,
        'X-Price-Board-Invalid': invalid,
      });
    }
    const held = await deps.held(query.symbols);
    const now = deps.now();
    if (!held || showsNothing(query, held)) {
      // Upstream trouble: the last good render, marked by its quotes' age.
      const last = await cache.last(key);
      if (last?.quotes !== undefined && last.quotes !== '[]') {
        const age = Math.max(0, Math.round((now - last.dataAt) / 1000));
        const body = withSnapshot(tag, last.markup, last.eventId, new Date(now).toISOString(), last.quotes) + script;
        return sendCacheable(req, res, body, CACHING.render, age, last.etag, HTML);
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
    const body = withSnapshot(tag, render.markup, shown.eventId, shown.at, JSON.stringify(shown.quotes)) + script;
    sendCacheable(req, res, body, CACHING.render, shown.ageSeconds, render.etag, HTML);
  } catch (error) {
    // A page including this must still render: the bare element, which then fetches as usual.
    metrics.inc('relay_render_failures_total', 'Fragment renders that threw (answered with the bare element).', {
      widget: tag,
    });
    // Not kept by any cache (`no-store`): the next request renders again.
    sendRaw(res, 200, bareElement(tag, query.attributes) + script, {
      ...HTML,
      'X-Price-Board-Render-Error': errorHeader(error),
    });
  }
}
