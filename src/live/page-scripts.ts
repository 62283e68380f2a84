/**
 * Our widget scripts on the page, and the moment the last of them has run: when the widgets'
 * first requests may go out. A page may load several of our scripts
 * (`price-board.js`, `price-ticker.js`, `price-converter.js`) as module script tags; the browser
 * runs them one after another with a microtask checkpoint between, so the elements of the later
 * ones would miss the first one's `/v1/prices` request. While such a page is still running its
 * deferred scripts, requests wait for `DOMContentLoaded`, which follows the last of them.
 */

const WIDGET_SCRIPT = /\/price-(board|ticker|converter)\.js([?#]|$)/;

/** True while deferred scripts still run (before `DOMContentLoaded`) and more than one is ours. */
function moreScriptsComing(): boolean {
  const doc = globalThis.document;
  // 'interactive' lasts until `load`: navigation timing tells whether DOMContentLoaded began.
  if (doc?.readyState !== 'interactive') return false;
  // Our scripts first: the page's first navigation timing entry costs more (about 2 ms of the
  // first request's start on the bench machine, 8 ms at 4× CPU throttling), and is mostly not needed.
  let ours = 0;
  for (const script of doc.querySelectorAll<HTMLScriptElement>('script[type="module"][src]')) {
    if (WIDGET_SCRIPT.test(script.src)) ours++;
  }
  if (ours < 2) return false;
  const navigation = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  return !!navigation && navigation.domContentLoadedEventStart === 0;
}

/** Runs `fn` in a microtask, or at `DOMContentLoaded` while more of our scripts are to run. */
export function afterOurScripts(fn: () => void): void {
  if (moreScriptsComing()) document.addEventListener('DOMContentLoaded', fn, { once: true });
  else queueMicrotask(fn);
}
