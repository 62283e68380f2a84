/**
 * The downstream /v1 endpoints, answered from the relay's state and cache in the service's shapes
 * (DESIGN.md §4), with `Cache-Control` and `ETag`/304 so that a CDN or nginx in front absorbs most
 * requests, and stale data (marked by `Age` and `Warning`) rather than an error when upstream
 * cannot answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestedSymbols, sendError } from './http';
import { BAD_RESPONSE, CACHING, sendCacheable, sendUpstreamError } from './api-answers';
import { ASK_TIMEOUT_MS, errorOf, outcomeOf } from './asks';
import type { Budget } from './budget';
import { CatalogIndex } from './catalog-index';
import { normalizeHistory, PriceBoardError, PriceClient, type Quote } from './from-src';
import { cutHistory } from './history-cut';
import { BAR_MS, RECORD_MS } from './engine/record';
import type { AskOutcome, CacheEntry, Engine, RecordedBar, RelayEvent } from './engine/types';
import type { FanOut } from './fanout';
import type { Feed } from './feed';
import { holdsKey } from './holds-key';
import type { Logger } from './log';
import type { Metrics } from './metrics';
import { HistoryBudget } from './history-budget';
import type { UpstreamGate } from './upstream';

/** A cached history is fetched again after this long (served stale meanwhile if upstream fails). */
const HISTORY_TTL_MS = 5 * 60_000;
/** How long a request waits for the quotes of symbols just added to the upstream subscription. */
const READY_TIMEOUT_MS = 8_000;
/**
 * The spans of history fetched from upstream and cached (the board's span buttons): any other
 * `days` is cut from the enclosing one, so asks naming every `days` cost at most one request per
 * symbol and span. 1 (today) is answered from the relay's own record, never asked of the upstream.
 */
export const HISTORY_SPANS: readonly number[] = [1, 7, 30, 365];
/** The longest `days` the service accepts (beyond the plan's span it answers 403). */
const MAX_DAYS = 365;
export interface ApiDeps {
  engine: Engine;
  feed: Feed;
  fanout: FanOut;
  gate: UpstreamGate;
  baseUrl: string;
  apiKey: string;
  /** The plan's longest history span in days. */
  spanDays: number;
  /** The upstream budget: its history part is split by address and by span ({@link HistoryBudget}). */
  budget?: Budget;
  log?: Logger;
  metrics?: Metrics;
  now: () => number;
}

/** The quotes a render shows ({@link RelayApi.held}). */
export interface HeldQuotes {
  /** The stream event id the quotes correspond to (a client resumes after it). */
  eventId: number;
  at: string;
  quotes: Quote[];
  /** Asked ids the relay does not serve. */
  unknown: string[];
  /** Set when the quotes are stale (upstream trouble): their age. */
  ageSeconds?: number;
}

export class RelayApi {
  readonly #history: PriceClient;
  readonly #historyRequests = new Map<string, Promise<CacheEntry>>();
  readonly #historyBudget: HistoryBudget;
  readonly #catalog: CatalogIndex;

  readonly #deps: ApiDeps;

  constructor(deps: ApiDeps) {
    this.#deps = deps;
    this.#historyBudget = new HistoryBudget(deps.budget, deps.now);
    this.#catalog = new CatalogIndex({ ...deps, holdsKey: (body) => holdsKey(body, deps.apiKey) });
    this.#history = new PriceClient({
      baseUrl: deps.baseUrl,
      apiKey: deps.apiKey,
      fetch: deps.gate.fetchFor('other'),
      retry: { retries: 0, baseMs: 0, maxMs: 0 },
    });
  }

  /** The relay's clock (epoch ms). */
  now(): number {
    return this.#deps.now();
  }

  /** The served symbols as a lookup, or undefined (and a 503 sent) when not even a stale list exists. */
  async #known(res: ServerResponse): Promise<Set<string> | undefined> {
    try {
      return (await this.#catalog.view()).ids;
    } catch (error) {
      return void sendUpstreamError(res, error);
    }
  }

  async prices(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const known = await this.#known(res);
    const ids = known && requestedSymbols(res, url, (id) => known.has(id));
    if (!ids || this.#allRefused(res, ids)) return;
    this.#deps.feed.use(ids);
    const snap = await this.#deps.feed.ready(ids, READY_TIMEOUT_MS);
    if (snap.quotes.length === 0 && this.#allRefused(res, ids)) return;
    if (snap.quotes.length === 0)
      return sendUpstreamError(
        res,
        this.#deps.gate.halted ? new PriceBoardError('server', 'halted') : new PriceBoardError('server', 'no data yet'),
      );
    const body = JSON.stringify({
      data: { at: new Date(this.#deps.now()).toISOString(), delay_seconds: 0, quotes: snap.quotes },
    });
    if (this.#refuseKey(res, body, 'prices')) return;
    sendCacheable(req, res, body, CACHING.prices, this.#deps.feed.fresh ? undefined : this.#deps.feed.ageSeconds);
  }

  /**
   * What `/v1/prices` would answer for `ids`, for a render: the held quotes of those the relay
   * serves (through the same feed, so no upstream request of a render's own), the stream event id
   * they correspond to, and the ids it does not serve. Undefined when not even a stale symbol list
   * exists.
   */
  async held(ids: readonly string[]): Promise<HeldQuotes | undefined> {
    let known: Set<string>;
    try {
      known = (await this.#catalog.view()).ids;
    } catch {
      return undefined;
    }
    const served = ids.filter((id) => known.has(id) && !this.#deps.gate.refuses(id));
    const unknown = ids.filter((id) => !served.includes(id));
    if (served.length > 0) this.#deps.feed.use(served);
    const snap = served.length > 0 ? await this.#deps.feed.ready(served, READY_TIMEOUT_MS) : { id: 0, quotes: [] };
    const { fresh, ageSeconds } = this.#deps.feed;
    return {
      eventId: snap.id,
      at: new Date(this.#deps.now()).toISOString(),
      quotes: snap.quotes,
      unknown,
      ageSeconds: fresh ? undefined : ageSeconds,
    };
  }

  async symbols(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let view;
    try {
      view = await this.#catalog.view();
    } catch (error) {
      return sendUpstreamError(res, error);
    }
    if (this.#refuseKey(res, view.body, 'symbols', view.holdsKey)) return;
    sendCacheable(req, res, view.body, CACHING.symbols, undefined, view.etag);
  }

  /**
   * Every symbol asked is refused by the upstream plan (SERVICE-SPEC §8): answered as an unknown
   * symbol at once, as the service would. A request naming good ones beside them gets the good ones.
   */
  #allRefused(res: ServerResponse, ids: string[]): boolean {
    if (!ids.every((s) => this.#deps.gate.refuses(s))) return false;
    const list = ids.slice(0, 50);
    sendError(res, 404, 'unknown_symbol', `not in the upstream plan: ${list.join(', ')}`, { symbols: list });
    return true;
  }

  /** A body holding the key is never sent: 502 and one log line (the key itself masked there). */
  #refuseKey(res: ServerResponse, body: string, what: string, holds = holdsKey(body, this.#deps.apiKey)): boolean {
    if (!holds) return false;
    this.#deps.log?.('upstream_body_refused', { what, reason: 'holds UPSTREAM_KEY' });
    sendError(res, 502, 'bad_response', BAD_RESPONSE, {}, { 'Retry-After': '5' });
    return true;
  }

  /** `address`: the visitor's, as the per-address limits count it (its share of the history budget). */
  async historyOf(req: IncomingMessage, res: ServerResponse, url: URL, symbol: string, address = ''): Promise<void> {
    const known = await this.#known(res);
    if (!known) return;
    if (!known.has(symbol)) {
      // Bounded, and cut between characters (code points), not inside one.
      const shown = [...symbol].slice(0, 40).join('');
      return sendError(res, 404, 'unknown_symbol', `unknown symbol: ${shown}`, { symbols: [shown] });
    }
    const raw = url.searchParams.get('days');
    // As the service reads it: an integer from 1 to 365.
    const days = raw !== null && /^\d{1,3}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(days >= 1 && days <= MAX_DAYS))
      return sendError(res, 400, 'bad_request', `days must be an integer from 1 to ${MAX_DAYS}`);
    // Known from the plan: answered here rather than spending a request on it.
    if (days > this.#deps.spanDays) {
      return sendError(res, 403, 'plan_limit', `the plan gives at most ${this.#deps.spanDays} days of history`, {
        max_days: this.#deps.spanDays,
      });
    }

    if (days === 1) return this.#today(req, res, symbol);

    // Fetched and cached by its enclosing span only, served cut to the asked days.
    const span = HISTORY_SPANS.find((d) => d >= days)!;
    const key = `history:${symbol}:${span}`;
    const { cache, leader, asks } = this.#deps.engine;
    const cached = await cache.get(key);
    const send = (entry: CacheEntry, ageSeconds?: number): void =>
      sendCacheable(req, res, cutHistory(entry, days, span), CACHING.history, ageSeconds);
    if (cached && this.#deps.now() - cached.storedAt < HISTORY_TTL_MS) return send(cached);
    // Only misses count: a popular span served from the cache must not raise the bar for the others.
    this.#historyBudget.spans.missed(key);
    const stale = (): void => send(cached!, Math.round((this.#deps.now() - cached!.storedAt) / 1000));
    // A miss spends upstream: each address may start only its share (joining a request in flight is free).
    const joins = leader.isLeader && this.#historyRequests.has(key);
    const wait = joins ? 0 : this.#historyBudget.addresses.take(address);
    if (wait > 0) {
      if (cached) return stale();
      const seconds = String(Math.ceil(wait / 1000));
      return sendError(
        res,
        429,
        'rate_limited',
        'this address has used its share of the history budget; try again shortly',
        {},
        { 'Retry-After': seconds },
      );
    }
    const giveBack = (error: unknown): void => {
      if (!joins && error instanceof PriceBoardError && error.code === 'rate_limited')
        this.#historyBudget.addresses.giveBack(address);
    };
    // A follower spends nothing upstream: it asks the leader to fill the key and answers from the cache.
    if (!leader.isLeader) {
      const outcome = await asks.ask(key, ASK_TIMEOUT_MS, cached?.storedAt);
      const filled = outcome?.filled ? await cache.peek(key) : undefined;
      if (filled) return send(filled);
      giveBack(errorOf(outcome));
      if (cached) return stale();
      return sendUpstreamError(res, errorOf(outcome), symbol);
    }
    try {
      send(await this.#fetchHistory(key, symbol, span));
    } catch (error) {
      giveBack(error);
      if (cached) return stale();
      sendUpstreamError(res, error, symbol);
    }
  }

  /**
   * `days=1`: the bars of the last 24 h from the record, in the service's history shape, at no
   * upstream cost on any member. A symbol with no change recorded in that time gets its current
   * price as one bar (it did not move today). One not relayed yet joins the upstream stream, as
   * for `/v1/prices`, and is recorded from then on; meanwhile it is answered 503 at once (the board
   * tries again shortly): waiting here would let a botnet asking every symbol hold connections.
   */
  async #today(req: IncomingMessage, res: ServerResponse, symbol: string): Promise<void> {
    const { record, state } = this.#deps.engine;
    const now = this.#deps.now();
    // From the bar that holds the moment 24 h ago.
    const from = Math.floor((now - RECORD_MS) / BAR_MS) * BAR_MS;
    let bars = await record.bars(symbol, from);
    if (bars.length === 0) {
      const quote = (await state.snapshot([symbol])).quotes[0];
      if (!quote) {
        this.#deps.feed.use([symbol]);
        return sendUpstreamError(res, new PriceBoardError('server', 'no data yet'));
      }
      const p = quote.price;
      bars = [{ t: Math.floor(now / BAR_MS) * BAR_MS, first: 0, last: 0, open: p, high: p, low: p, close: p }];
    }
    const points = bars.map((b: RecordedBar) => ({
      at: new Date(b.t).toISOString(),
      open: b.open,
      high: b.high,
      low: b.low,
      close: b.close,
    }));
    const body = JSON.stringify({ data: { symbol, days: 1, points } });
    if (this.#refuseKey(res, body, 'history')) return;
    sendCacheable(req, res, body, CACHING.today);
  }

  /** On the leader: fills a cache key a follower asked for (history, symbols), with the usual budget rules. */
  async fill(key: string): Promise<AskOutcome> {
    try {
      if (key === 'symbols') {
        await this.#deps.feed.catalog();
        return { filled: true };
      }
      const m = /^history:([a-z0-9_]{1,64}):(\d{1,3})$/.exec(key);
      if (!m || !HISTORY_SPANS.includes(Number(m[2])))
        return { filled: false, error: { code: 'bad_request', status: 400 } };
      // A follower's miss: counted where the spending is decided.
      this.#historyBudget.spans.missed(key);
      const cached = await this.#deps.engine.cache.peek(key);
      // Another asker's request may have filled it meanwhile.
      if (!cached || this.#deps.now() - cached.storedAt >= HISTORY_TTL_MS)
        await this.#fetchHistory(key, m[1]!, Number(m[2]));
      return { filled: true };
    } catch (error) {
      return outcomeOf(error);
    }
  }

  /**
   * One upstream request per (symbol, days) however many ask at once, on any member. The body is
   * checked before it is cached: parsed and re-serialised (nothing but JSON passes), holding a
   * point the board can draw (DESIGN.md §4), and never holding the key.
   */
  #fetchHistory(key: string, symbol: string, days: number): Promise<CacheEntry> {
    let pending = this.#historyRequests.get(key);
    if (!pending) {
      const started = this.#historyBudget.spans.start(key);
      if (started === undefined)
        return Promise.reject(
          new PriceBoardError('rate_limited', 'the rest of the history budget is kept for spans in demand', {
            retryAfterMs: 5_000,
            data: { reason: 'demand' },
          }),
        );
      pending = this.#history
        .history(symbol, days)
        .then(async (body) => {
          const text = JSON.stringify(body);
          if (holdsKey(text, this.#deps.apiKey)) {
            this.#deps.log?.('upstream_body_refused', { what: 'history', symbol, days, reason: 'holds UPSTREAM_KEY' });
            throw new PriceBoardError('bad_response', 'history body refused');
          }
          try {
            normalizeHistory(body, { days, now: this.#deps.now() });
          } catch (error) {
            this.#deps.log?.('upstream_body_refused', {
              what: 'history',
              symbol,
              days,
              reason: 'no point the board can draw',
            });
            throw error;
          }
          const entry = { body: text, storedAt: this.#deps.now() };
          await this.#deps.engine.cache.set(key, entry);
          return entry;
        })
        .catch((error: unknown) => {
          // Refused before it was sent (the budget, a pause): it spent nothing.
          if (error instanceof PriceBoardError && error.code === 'rate_limited')
            this.#historyBudget.spans.refund(started);
          throw error;
        })
        .finally(() => this.#historyRequests.delete(key));
      this.#historyRequests.set(key, pending);
    }
    return pending;
  }

  /** Opens a downstream stream (resuming after `Last-Event-ID` when the buffer still holds it). */
  async stream(req: IncomingMessage, res: ServerResponse, url: URL, release: () => void): Promise<void> {
    const known = await this.#known(res);
    const ids = known && requestedSymbols(res, url, (id) => known.has(id));
    if (!ids || this.#allRefused(res, ids)) return release();
    this.#deps.feed.use(ids);
    // Registered before its first events are read, so no change falls in between.
    const start = this.#deps.fanout.open(res, ids, release);
    const lastId = req.headers['last-event-id'];
    let missed: RelayEvent[] | undefined;
    if (typeof lastId === 'string' && /^\d{1,15}$/.test(lastId))
      missed = await this.#deps.engine.state.since(Number(lastId), new Set(ids));
    if (missed) return start({ missed });
    const snap = await this.#deps.feed.ready(ids, READY_TIMEOUT_MS);
    start({ snapshot: { ...snap, at: new Date(this.#deps.now()).toISOString() } });
  }
}
