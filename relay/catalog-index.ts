/**
 * The symbol catalog as the endpoints use it (DESIGN.md §7.1): the list's ids as a lookup and the
 * `/v1/symbols` answer with its ETag, made once per copy the upstream sends, not per request. A
 * 100,000-symbol catalog is 7 MB of JSON: parsing it for every `/v1/prices` cost 258 ms of CPU
 * each. The feed (`feed.ts`) keeps fetching and storing it; this keeps what was made of it.
 */
import { etagOf } from './etag';
import type { SymbolInfo } from './from-src';
import type { Engine } from './engine/types';
import type { Feed } from './feed';
import type { Metrics } from './metrics';

/** Checked for a newly stored copy at most this often: between checks a request reads no cache. */
const CHECK_MS = 5_000;
/** A stored copy is asked of the feed again after this long (feed.ts's TTL: it refreshes then). */
const REFRESH_MS = 60 * 60_000;
/** While the feed serves the same stored copy past that (upstream failing), it is asked only this often. */
const RETRY_MS = 60_000;

export interface CatalogView {
  /** The stored copy it was made from (undefined: not stored). */
  storedAt: number | undefined;
  ids: Set<string>;
  /** The `/v1/symbols` answer. */
  body: string;
  etag: string;
  /** Whether the body holds the upstream key (then it is never sent). */
  holdsKey: boolean;
  checkedAt: number;
  /** When the feed is asked again. */
  askAt: number;
}

export interface CatalogIndexDeps {
  engine: Engine;
  feed: Feed;
  metrics?: Metrics;
  now: () => number;
  holdsKey: (body: string) => boolean;
}

export class CatalogIndex {
  #view: CatalogView | undefined;
  #check: Promise<CatalogView> | undefined;

  readonly #deps: CatalogIndexDeps;

  constructor(deps: CatalogIndexDeps) {
    this.#deps = deps;
  }

  /** The view held until a check finds another stored copy (one check at a time); throws when there is no list at all. */
  view(): Promise<CatalogView> {
    const view = this.#view;
    if (view && this.#deps.now() - view.checkedAt < CHECK_MS) return Promise.resolve(view);
    this.#check ??= this.#checkStored(view).finally(() => (this.#check = undefined));
    return this.#check;
  }

  async #checkStored(view: CatalogView | undefined): Promise<CatalogView> {
    const { cache } = this.#deps.engine;
    const now = this.#deps.now();
    // A visitor's read (`get`), as when each request read it: the catalog stays among the entries in use.
    const stored = await cache.get('symbols');
    if (view && stored?.storedAt === view.storedAt && now < view.askAt) return Object.assign(view, { checkedAt: now });
    let list: SymbolInfo[];
    try {
      list = await this.#deps.feed.catalog();
    } catch (error) {
      // An old list beats no list.
      if (view) return Object.assign(view, { checkedAt: now, askAt: now + RETRY_MS });
      throw error;
    }
    const storedAt = (await cache.peek('symbols'))?.storedAt;
    // The same copy again (upstream cannot refresh it): kept, and the feed asked again later.
    if (view && storedAt === view.storedAt) return Object.assign(view, { checkedAt: now, askAt: now + RETRY_MS });
    this.#deps.metrics?.inc('relay_catalog_reads_total', 'Catalog copies read and indexed for the endpoints.');
    const body = JSON.stringify({ data: { symbols: list } });
    this.#view = {
      storedAt,
      ids: new Set(list.map((s) => s.symbol)),
      body,
      etag: etagOf(body),
      holdsKey: this.#deps.holdsKey(body),
      checkedAt: now,
      askAt: Math.max((storedAt ?? now) + REFRESH_MS, now + CHECK_MS),
    };
    return this.#view;
  }
}
