/**
 * `assets/takeover.js?{widget}`: the script of the relay's rendered fragments (DESIGN.md §13). It
 * loads the widget's module (`price-board.js`, `price-ticker.js` or `price-converter.js` beside
 * `assets/`, named in its own query) once the page has painted: the rows already in the page's
 * HTML show without waiting for that module's evaluation and the element's upgrade, which then take
 * them over. The fragment preloads the module beside it (`<link rel="modulepreload">`), so nothing
 * waits on the network after that paint. Tiny on purpose: nothing of the element's.
 */
// The tags of `WIDGET_TAGS` (src/embed/params.ts), written out: importing them would make this
// entry and the embed page share a chunk, one more file to fetch before the module.
const WIDGETS: readonly string[] = ['price-board', 'price-ticker', 'price-converter'];

// Its own address, in a variable: Vite rewrites `new URL(x, import.meta.url)` as an asset's.
const here = import.meta.url;
const widget = new URL(here).search.slice(1);
if (WIDGETS.includes(widget)) {
  const load = (): void => void import(/* @vite-ignore */ new URL(`../${widget}.js`, here).href);
  // A task queued from an animation frame's callback runs after that frame is rendered. A hidden
  // page renders no frame until shown: it loads the module now.
  if (document.visibilityState === 'hidden') load();
  else requestAnimationFrame(() => setTimeout(load));
} else {
  console.error(
    `price-board: takeover.js names no widget ("?${widget}"): use assets/takeover.js?price-board, ?price-ticker or ?price-converter`,
  );
}
