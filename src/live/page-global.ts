/**
 * What every copy of the data layer on a page shares. A page runs two copies of price-board.js
 * when its script tag names it otherwise than the ticker's and converter's scripts import it (a
 * CMS's `?ver=2`, a CDN's redirect to a versioned address); their widgets must still share one hub
 * per connection and start together (DESIGN.md §6). `name` (`price-board/...`) carries a version, changed whenever the
 * shape of what is kept changes, so that two releases on one page keep theirs apart.
 */
export function pageGlobal<T>(name: string, value: T): T {
  return ((globalThis as unknown as Record<symbol, T | undefined>)[Symbol.for(name)] ??= value);
}
