/**
 * Script of the iframe host page `embed.html`: one `<price-board>` (or, with `widget=ticker` or
 * `widget=converter`, one `<price-ticker>` or `<price-converter>`: only that element's module is
 * loaded) configured from the page's URL parameters, filling the frame, telling its parent how
 * tall it is.
 *
 * - Parameters are the attribute names (`key` = `api-key`), applied with `setAttribute` only and
 *   never interpreted here (but `max-height`, a length set as `--price-board-max-height`): the element validates them, falls back to the
 *   default for a bad value and says it to the developer (`invalid_attribute`: the event, the console). Unknown parameters are ignored.
 * - `base-url` defaults to the element's default, the origin the module was loaded from: in
 *   iframe mode the API requests come from the widget's own origin, not the embedding site's.
 * - The resize message `{ type: "price-board:resize", height }` goes to `window.parent` with
 *   target origin `*`: it carries only a height, which the embedding page can see anyway, and
 *   the parent's origin is not reliably knowable here (`document.referrer` is empty under a
 *   `no-referrer` policy; `location.ancestorOrigins` is missing in Firefox). The receiving side
 *   (the loader) is the one that must check, and does: origin and source.
 */
import 'vazirmatn/Vazirmatn-Variable-font-face.css';
import './host.css';
// Static: price-board.js holds what every widget shares (the ticker and converter import it).
import '../price-board';
import { readEmbedParams, readWidget, WIDGET_TAGS, type EmbedWidget } from './params';
import { RESIZE_MESSAGE, type ResizeMessage } from './protocol';

const MODULES: Record<Exclude<EmbedWidget, 'board'>, () => Promise<unknown>> = {
  ticker: () => import('../price-ticker'),
  converter: () => import('../price-converter'),
};

const widget = readWidget(location.search);
const root = document.documentElement;

/**
 * Puts the element, configured from the URL, on the page once its module is there. The relay's
 * page already holds it, rendered from the same URL (DESIGN.md §13): that one stays, with the
 * attributes the relay read, and takes over from its snapshot.
 */
function show(): void {
  const rendered = document.body.querySelector(WIDGET_TAGS[widget]);
  const element = rendered ?? document.createElement(WIDGET_TAGS[widget]);
  // The element's own attributes (Lit's observedAttributes) decide which parameters apply.
  const observed = (element.constructor as unknown as { observedAttributes: string[] }).observedAttributes;
  const settings = readEmbedParams(location.search, observed);
  root.toggleAttribute('data-transparent', settings.transparent);
  // Through the CSSOM, which a strict style-src allows (a style attribute it would refuse).
  if (settings.maxHeight) element.style.setProperty('--price-board-max-height', settings.maxHeight);
  else if (settings.maxHeight === undefined) console.warn('price-board embed: max-height is not a length; ignored');
  if (rendered) return;
  for (const [name, value] of settings.attributes) element.setAttribute(name, value);
  document.body.replaceChildren(element);
}

// No top-level await: it would make the bundler split price-board.js into a re-export.
if (widget === 'board') show();
else void MODULES[widget]().then(show);

let lastHeight = -1;

/** Posts the document's height to the parent when it changed. */
function reportHeight(): void {
  if (window.parent === window) return;
  const height = Math.ceil(root.getBoundingClientRect().height);
  if (height === lastHeight) return;
  lastHeight = height;
  const message: ResizeMessage = { type: RESIZE_MESSAGE, height };
  window.parent.postMessage(message, '*');
}

// The html element is as tall as its content (no `height: 100%` in host.css), so resizing the
// frame to it cannot feed back into another change.
new ResizeObserver(reportHeight).observe(root);
