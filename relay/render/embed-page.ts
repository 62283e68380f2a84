/**
 * `embed.html` from the relay (DESIGN.md §13): the built page with its widget already in its body,
 * rendered as a fragment is (declarative shadow root, snapshot), so an iframe shows prices at its
 * first paint, before any script runs. The page keeps its own script: it finds the rendered element
 * and leaves it in place (src/embed/host.ts), and the element takes over from the snapshot.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readDistText } from '../static';
import { isTruthyFlag, readWidget, WIDGET_TAGS } from './from-widgets';
import { renderElement, sendRendered, type FragmentDeps } from './route';

/** The tag the page's `widget=` names, as the page reads it: the board for none or an unknown one. */
export function embedTag(params: URLSearchParams): string {
  return WIDGET_TAGS[readWidget(params)];
}

/**
 * Answers `embed.html` with its widget rendered from the query (the element's attribute names, as
 * the page reads them; the key is never needed: the relay holds it). False when there is no page
 * to fill in (no build, or a page without a body): the caller serves the file as it is.
 */
export async function sendEmbedPage(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  deps: FragmentDeps,
  distDir?: string,
): Promise<boolean> {
  const page = await readDistText('/embed.html', distDir);
  const body = page && /<body>/.exec(page.text);
  if (!page || !body) return false;
  const rendered = await renderElement(url, embedTag(url.searchParams), deps);
  const at = body.index + body[0].length;
  let html = page.text.slice(0, at) + rendered.markup + page.text.slice(at);
  // What the page's script would set on its root, set before the first paint (no flash of background).
  if (isTruthyFlag(url.searchParams.get('transparent'))) html = html.replace(/<html\b/, '<html data-transparent');
  sendRendered(req, res, rendered, html);
  return true;
}
