/**
 * `GET /render/{widget}?{attributes}` (DESIGN.md §13): a widget's first paint as HTML, rendered
 * from the quotes the relay holds. Always a 200 fragment with `Cache-Control`, an `ETag` and 304;
 * a bad query or missing quotes show the visitor's Persian words, never a 5xx page inside a host's
 * HTML.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CACHING, sendCacheable } from '../api-answers';
import type { HeldQuotes } from '../api';
import { etagOf } from '../etag';
import { badQueryFragment, quotesFragment, readQuery, RENDERED_WIDGETS } from './fragment';
import { prepareRenderer } from './renderer';

const HTML = { 'Content-Type': 'text/html; charset=utf-8' };

/** The widget a `/render/...` path names, or undefined (not a fragment: a 404 as any path). */
export function renderedWidget(path: string): string | undefined {
  const m = /^\/render\/([a-z-]+)$/.exec(path);
  return m && Object.hasOwn(RENDERED_WIDGETS, m[1]!) ? m[1] : undefined;
}

/** Answers a fragment of `tag`; `held` gives the relay's quotes (undefined: none known at all). */
export async function sendFragment(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  tag: string,
  held: (ids: readonly string[]) => Promise<HeldQuotes | undefined>,
): Promise<void> {
  await prepareRenderer();
  const query = readQuery(RENDERED_WIDGETS[tag]!, url.searchParams);
  if (query.invalid.length > 0) {
    // The developer's detail: which attributes (never their values), beside the visitor's words.
    return sendCacheable(req, res, badQueryFragment(tag, query), CACHING.render, undefined, undefined, {
      ...HTML,
      'X-Price-Board-Invalid': query.invalid.join(','),
    });
  }
  const quotes = (await held(query.symbols)) ?? {
    eventId: 0,
    at: new Date().toISOString(),
    quotes: [],
    unknown: [],
  };
  const body = quotesFragment(tag, query, quotes);
  // Weak: the snapshot's `at` (when the relay answered) differs per render of the same prices, and
  // a cache holding the fragment of the same change holds an equivalent one.
  const etag = `W/${etagOf(body.replace(quotes.at, ''))}`;
  sendCacheable(req, res, body, CACHING.render, quotes.ageSeconds, etag, HTML);
}
