/**
 * The render cache (DESIGN.md §13): a fragment is rendered once per normalized query and change of
 * the quotes it shows, never per visitor, and the last good render of a query is kept for upstream
 * trouble. Bounded by bytes with the relay's own segmented LRU (`MemoryCache`, as history and the
 * catalog): a botnet's distinct queries, each asked once, churn its probation segment only and never
 * evict the fragments visitors ask for again.
 */
import { MemoryCache } from '../engine/memory-cache';

/** The default byte bound: about 400 board fragments (each carries its 14 KB style block). */
export const RENDER_CACHE_BYTES = 8 * 1024 * 1024;

/** One render of a query. */
export interface Render {
  /** What the render was made from (the quotes shown, the clock's day): a new version is a new render. */
  version: string;
  /** The stream event id its quotes correspond to. */
  eventId: number;
  /** Its quotes as JSON: the snapshot of a last good render served later. */
  quotes: string;
  /** The fragment without its snapshot (put in per answer: it carries the answer's moment). */
  markup: string;
  /** Epoch ms when its quotes were current (stale quotes count from their own time). */
  dataAt: number;
}

type Made = Omit<Render, 'version' | 'dataAt'>;

/** A render as the cache's body: its fields a line each, the markup last (no other holds a newline). */
function encode(render: Render): string {
  return [render.version, render.eventId, render.quotes, render.markup].join('\n');
}

function decode(body: string, dataAt: number): Render {
  const lines: string[] = [];
  let from = 0;
  for (let i = 0; i < 3; i++) {
    const end = body.indexOf('\n', from);
    lines.push(body.slice(from, end));
    from = end + 1;
  }
  const [version, eventId, quotes] = lines as [string, string, string];
  return { version, eventId: Number(eventId), quotes, markup: body.slice(from), dataAt };
}

export class RenderCache {
  readonly maxBytes: number;
  readonly #cache: MemoryCache;
  /** Renders under way by key and version: simultaneous visitors of a new change wait for one. */
  readonly #making = new Map<string, Promise<Render>>();

  constructor(maxBytes = RENDER_CACHE_BYTES) {
    this.maxBytes = maxBytes;
    this.#cache = new MemoryCache(maxBytes);
  }

  /** Bytes held (keys, renders and their overhead, as `MemoryCache` counts them). */
  get bytes(): number {
    return this.#cache.bytes;
  }

  /**
   * The render of `key` at `version`: the cached one, or `make()`'s, stored (replacing the query's
   * render of an older version). `make` may throw; nothing is stored then.
   */
  render(key: string, version: string, dataAt: number, make: () => Made): Promise<Render> {
    const making = `${key}\n${version}`;
    const pending = this.#making.get(making);
    if (pending) return pending;
    const done = this.#find(key, version, dataAt, make).finally(() => this.#making.delete(making));
    this.#making.set(making, done);
    return done;
  }

  async #find(key: string, version: string, dataAt: number, make: () => Made): Promise<Render> {
    const cached = await this.#cache.get(key);
    if (cached) {
      const held = decode(cached.body, cached.storedAt);
      if (held.version === version) return held;
    }
    const made = { ...make(), version, dataAt };
    await this.#cache.set(key, { body: encode(made), storedAt: dataAt });
    return made;
  }

  /** The last good render of `key`, whatever its version (upstream trouble); no use counted. */
  async last(key: string): Promise<Render | undefined> {
    const cached = await this.#cache.peek(key);
    return cached && decode(cached.body, cached.storedAt);
  }
}
