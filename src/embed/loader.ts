/**
 * `embed.js`: turns every `<div data-price-board data-symbols=… data-key=…>` on the page into an
 * auto-resizing iframe of `embed.html` (the file next to this script). Tiny on purpose: no lit,
 * nothing from the element.
 *
 * - The placeholder's `data-*` attributes are the attribute names of `<price-board>` (`data-key`
 *   or `data-api-key`, `data-base-url`, …) plus `data-transparent`; others are not passed on.
 *   `data-widget="ticker"` or `"converter"` shows `<price-ticker>` or `<price-converter>` instead
 *   (with their own attributes: `data-speed`, `data-symbol`, `data-amount`, `data-reverse`).
 *   `data-title` sets the iframe's accessible title.
 * - Works whether the script comes before or after the placeholders, and for placeholders added
 *   later (a MutationObserver). A placeholder is converted once; loading the script again (even
 *   from another URL) does nothing more.
 * - Height follows `{ type: "price-board:resize", height }` messages, accepted only when the
 *   message comes from the embed page's origin *and* from that very iframe's window (one the
 *   loader made, or its copy in a converted placeholder after the page restored a cloned body).
 */
import { EMBED_PARAMETERS, WIDGET_TITLES } from './params';
import type { ResizeMessage } from './protocol';

// A type-checked copy rather than an import: embed.js stays one file with no shared chunk.
const RESIZE_MESSAGE: ResizeMessage['type'] = 'price-board:resize';

/** Marks a converted placeholder (and lets sites style it: `[data-price-board-ready]`). */
const READY_ATTRIBUTE = 'data-price-board-ready';
const SELECTOR = `[data-price-board]:not([${READY_ATTRIBUTE}])`;
const { names, addresses } = EMBED_PARAMETERS;
/** The `data-*` names passed on to the embed page, which decides what they mean. */
const SETTINGS = new Set<string>(names);
/** Settings holding an address: one written on this page means this page's address. */
const ADDRESSES = new Set<string>(addresses);
/** Height before the first resize message: about a board of five rows with its chart, a ticker, a converter. */
const INITIAL_HEIGHT: Readonly<Record<string, number>> = { board: 420, ticker: 44, converter: 170 };
const TITLES: Readonly<Record<string, string>> = WIDGET_TITLES;
const MAX_HEIGHT = 20_000;

/** Shared across copies of this script, so a second copy neither converts nor listens again. */
const GLOBAL_KEY = Symbol.for('price-board.embed-loader');

/**
 * `embed.html`, the file next to this script: the site's key goes to it, so it is never another
 * script's neighbour. Built as a classic script, so it cannot read `import.meta.url`: a classic
 * copy (also async/defer) is `document.currentScript` while it runs, if that is a script at all
 * (`<img name="currentScript">` in a page's HTML replaces it: DOM clobbering); a copy pasted as
 * `type="module"` has none, and takes the URL its own code runs from, as the engine's stack trace
 * names it (a search by file name found another site's `/embed.js` first).
 */
function embedPage(): URL {
  const current = document.currentScript;
  const self =
    (current instanceof HTMLScriptElement && current.src) ||
    /(https?:\/\/\S+?):\d+:\d+/.exec(new Error().stack ?? '')?.[1] ||
    document.baseURI;
  return new URL('embed.html', self);
}
const EMBED_PAGE = embedPage();

/** The iframes this loader made (weak: a removed placeholder leaves nothing behind). */
const frames = new WeakSet<HTMLIFrameElement>();
/** Placeholders converted while the page was being parsed: the parser may still add to them. */
const parsing = new Set<Element>();

/** The embed page URL for a placeholder, from its `data-*` attributes. */
function frameUrl(placeholder: Element): string {
  const url = new URL(EMBED_PAGE);
  for (const name of placeholder.getAttributeNames()) {
    const setting = name.slice('data-'.length);
    if (!name.startsWith('data-') || !SETTINGS.has(setting) || url.searchParams.has(setting)) continue;
    let value = placeholder.getAttribute(name) ?? '';
    if (ADDRESSES.has(setting) && value.trim() !== '') {
      try {
        // Against this page, not the embed page's server (`link="/price/{symbol}"`: the site's page).
        value = new URL(value.trim(), document.baseURI).href.replace(/%7Bsymbol%7D/gi, '{symbol}');
      } catch {
        /* left as written: the element reports it as invalid */
      }
    }
    // In the frame a viewport height would be the frame's own, which follows the board: a loop that
    // folds it. It means this page's viewport, as it is when the placeholder is converted.
    // (A window without a height yet, a hidden frame's, leaves it as written.)
    if (setting === 'max-height' && innerHeight > 0)
      value = value.replace(/^\s*(\d+(?:\.\d+)?)[sld]?vh\s*$/i, (_, n: string) =>
        String(Math.round((Number(n) * innerHeight) / 100)),
      );
    url.searchParams.set(setting, value);
  }
  // Commas are fine in a query and keep `symbols=usd,eur` readable.
  return url.href.replace(/%2C/gi, ',');
}

function convert(placeholder: Element): void {
  if (placeholder.hasAttribute(READY_ATTRIBUTE)) return;
  placeholder.setAttribute(READY_ATTRIBUTE, '');
  const iframe = document.createElement('iframe');
  iframe.src = frameUrl(placeholder);
  // The embed page reads an unknown widget as the board; so does this.
  const widget = placeholder.getAttribute('data-widget')?.trim().toLowerCase() ?? '';
  const kind = Object.hasOwn(TITLES, widget) ? widget : 'board';
  iframe.title = placeholder.getAttribute('data-title') || TITLES[kind]!;
  iframe.loading = 'lazy';
  iframe.width = '100%';
  iframe.height = String(INITIAL_HEIGHT[kind]);
  // CSSOM, not a style attribute: allowed under a strict style-src.
  iframe.style.border = '0';
  iframe.style.display = 'block';
  iframe.style.width = '100%';
  iframe.style.colorScheme = 'normal';
  frames.add(iframe);
  placeholder.replaceChildren(iframe);
  if (document.readyState === 'loading') parsing.add(placeholder);
}

function scan(root: ParentNode): void {
  if (root instanceof Element && root.matches(SELECTOR)) convert(root);
  for (const placeholder of root.querySelectorAll(SELECTOR)) convert(placeholder);
}

/**
 * An iframe this loader made, or a copy of one: a page that restores a cloned body (Turbo's cache,
 * a "back" that swaps the body) brings new iframes of ours, still in their converted placeholders.
 */
function ours(iframe: HTMLIFrameElement): boolean {
  return (
    frames.has(iframe) ||
    (!!iframe.parentElement?.hasAttribute(READY_ATTRIBUTE) && iframe.src.split(/[?#]/)[0] === EMBED_PAGE.href)
  );
}

function onMessage(event: MessageEvent): void {
  if (event.origin !== EMBED_PAGE.origin) return;
  const data: unknown = event.data;
  if (typeof data !== 'object' || data === null) return;
  const { type, height } = data as { type?: unknown; height?: unknown };
  // A height of 0 (the embed page measured before its widget was there) would fold the frame
  // shut between its first height and its real one: the text below would move twice.
  if (type !== RESIZE_MESSAGE || typeof height !== 'number' || !Number.isFinite(height) || height < 1) return;
  for (const iframe of document.querySelectorAll('iframe')) {
    if (iframe.contentWindow !== event.source || !ours(iframe)) continue;
    const px = Math.min(MAX_HEIGHT, Math.ceil(height));
    iframe.height = String(px);
    iframe.style.height = `${px}px`;
    return;
  }
}

function start(): void {
  const globals = window as unknown as Record<symbol, unknown>;
  if (globals[GLOBAL_KEY]) return;
  globals[GLOBAL_KEY] = true;

  window.addEventListener('message', onMessage);
  scan(document);
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) if (node instanceof Element) scan(node);
      if (record.type === 'attributes' && record.target instanceof Element) scan(record.target);
    }
  }).observe(document.documentElement, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['data-price-board'],
  });
  // A classic-script or async copy may run while the page is still parsing. A placeholder it
  // converted while the parser was still inside it (its HTML split between two network packets)
  // got the rest of its fallback after the frame: that goes once the page is parsed.
  if (document.readyState === 'loading') {
    document.addEventListener(
      'DOMContentLoaded',
      () => {
        for (const placeholder of parsing)
          for (const node of [...placeholder.childNodes]) if (!frames.has(node as HTMLIFrameElement)) node.remove();
        parsing.clear();
        scan(document);
      },
      { once: true },
    );
  }
}

start();
