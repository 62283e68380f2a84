/**
 * Script of the iframe host page `embed.html`: one `<price-board>` configured from the page's
 * URL parameters, filling the frame, telling its parent how tall it is.
 *
 * - Parameters are the attribute names (`key` = `api-key`), applied with `setAttribute` only and
 *   never interpreted here: the element validates them and shows its own Persian
 *   `invalid_attribute` error for a bad value. Unknown parameters are ignored.
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
import '../price-board';
import { readEmbedParams } from './params';
import { RESIZE_MESSAGE, type ResizeMessage } from './protocol';

const settings = readEmbedParams(location.search);
const root = document.documentElement;
root.toggleAttribute('data-transparent', settings.transparent);

const board = document.createElement('price-board');
for (const [name, value] of settings.attributes) board.setAttribute(name, value);
document.body.replaceChildren(board);

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
