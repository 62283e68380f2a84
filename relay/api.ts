/**
 * The downstream /v1 endpoints, answered from the relay's state and cache in the service's shapes
 * (DESIGN.md §4), with `Cache-Control` and `ETag`/304 so that a CDN or nginx in front absorbs most
 * requests, and stale data (marked by `Age` and `Warning`) rather than an error when upstream
 * cannot answer.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestedSymbols, sendError, sendRaw } from './http';
import { ASK_TIMEOUT_MS, errorOf, outcomeOf } from './asks';
import { PriceBoardError, PriceClient } from './from-src';
import type { AskOutcome, Engine, RelayEvent } from './engine/types';
import type { FanOut } from './fanout';
import type { Feed } from './feed';
import type { UpstreamGate } from './upstream';

/** Seconds a cache may keep an answer, then serve it stale while it fetches a new one. */
const CACHING = {
  prices: { maxAge: 2, swr: 10 },
  history: { maxAge: 300, swr: 3_600 },
  symbols: { maxAge: 3_600, swr: 86_400 },
};
/** A cached history is fetched again after this long (served stale meanwhile if upstream fails). */
const HISTORY_TTL_MS = 5 * 60_000;
/** How long a request waits for the quotes of symbols just added to the upstream subscription. */
const READY_TIMEOUT_MS = 8_000;

export interface ApiDeps {
  engine: Engine;
  feed: Feed;
  fanout: FanOut;
  gate: UpstreamGate;
  baseUrl: string;
  apiKey: string;
  /** The plan's longest history span in days. */
  spanDays: number;
  now: () => number;
}

function etagOf(body: string): string {
  return `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
}

/** A cacheable 200 (or 304 when the client holds it); `ageSeconds` marks stale data. */
function sendCacheable(req: IncomingMessage, res: ServerResponse, body: string, caching: { maxAge: number; swr: number }, ageSeconds?: number): void {
  const etag = etagOf(body);
  const headers: Record<string, string> = {
    'Cache-Control': `public, max-age=${caching.maxAge}, stale-while-revalidate=${caching.swr}`,
    ETag: etag,
  };
  if (ageSeconds !== undefined && Number.isFinite(ageSeconds)) {
    headers.Age = String(ageSeconds);
    headers.Warning = '110 - "Response is Stale"';
  }
  if (req.headers['if-none-match']?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  sendRaw(res, 200, body, headers);
}

/** The answer for an upstream failure when nothing is cached: the service's error shape. */
function sendUpstreamError(res: ServerResponse, error: unknown): void {
  if (!(error instanceof PriceBoardError)) throw error;
  if (error.code === 'rate_limited') {
    const seconds = String(Math.max(1, Math.ceil((error.retryAfterMs ?? 5_000) / 1000)));
    return sendError(res, 429, 'rate_limited', 'the relay is waiting for its upstream budget', {}, { 'Retry-After': seconds });
  }
  if (error.status === 403 && error.data?.serviceCode === 'plan_limit') return sendError(res, 403, 'plan_limit', 'the plan does not give this much history');
  if (error.status === 404) return sendError(res, 404, 'unknown_symbol', error.message);
  sendError(res, 503, 'upstream_unavailable', 'the price service cannot be reached; try again shortly', {}, { 'Retry-After': '5' });
}

export class RelayApi {
  private readonly history: PriceClient;
  private readonly historyRequests = new Map<string, Promise<string>>();

  constructor(private readonly deps: ApiDeps) {
    this.history = new PriceClient({
      baseUrl: deps.baseUrl,
      apiKey: deps.apiKey,
      fetch: deps.gate.fetchFor('other'),
      retry: { retries: 0, baseMs: 0, maxMs: 0 },
    });
  }

  /** The served symbols as a lookup, or undefined (and a 503 sent) when not even a stale list exists. */
  private async known(res: ServerResponse): Promise<Set<string> | undefined> {
    try {
      return new Set((await this.deps.feed.catalog()).map((s) => s.symbol));
    } catch (error) {
      return void sendUpstreamError(res, error);
    }
  }

  async prices(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const known = await this.known(res);
    const ids = known && requestedSymbols(res, url, (id) => known.has(id));
    if (!ids) return;
    this.deps.feed.use(ids);
    const snap = await this.deps.feed.ready(ids, READY_TIMEOUT_MS);
    if (snap.quotes.length === 0) return sendUpstreamError(res, this.deps.gate.halted ? new PriceBoardError('server', 'halted') : new PriceBoardError('server', 'no data yet'));
    const body = JSON.stringify({ data: { at: new Date(this.deps.now()).toISOString(), delay_seconds: 0, quotes: snap.quotes } });
    sendCacheable(req, res, body, CACHING.prices, this.deps.feed.fresh ? undefined : this.deps.feed.ageSeconds);
  }

  async symbols(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let list;
    try {
      list = await this.deps.feed.catalog();
    } catch (error) {
      return sendUpstreamError(res, error);
    }
    sendCacheable(req, res, JSON.stringify({ data: { symbols: list } }), CACHING.symbols);
  }

  async historyOf(req: IncomingMessage, res: ServerResponse, url: URL, symbol: string): Promise<void> {
    const known = await this.known(res);
    if (!known) return;
    if (!known.has(symbol)) {
      // Bounded, and cut between characters (code points), not inside one.
      const shown = [...symbol].slice(0, 40).join('');
      return sendError(res, 404, 'unknown_symbol', `unknown symbol: ${shown}`, { symbols: [shown] });
    }
    const raw = url.searchParams.get('days');
    const days = raw !== null && /^\d{1,3}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(days >= 1 && days <= 365)) return sendError(res, 400, 'bad_request', 'days must be an integer from 1 to 365');
    // Known from the plan: answered here rather than spending a request on it.
    if (days > this.deps.spanDays) {
      return sendError(res, 403, 'plan_limit', `the plan gives at most ${this.deps.spanDays} days of history`, { max_days: this.deps.spanDays });
    }

    const key = `history:${symbol}:${days}`;
    const { cache, leader, asks } = this.deps.engine;
    const cached = await cache.get(key);
    if (cached && this.deps.now() - cached.storedAt < HISTORY_TTL_MS) return sendCacheable(req, res, cached.body, CACHING.history);
    // A follower spends nothing upstream: it asks the leader to fill the key and answers from the cache.
    if (!leader.isLeader) {
      const outcome = await asks.ask(key, ASK_TIMEOUT_MS, cached?.storedAt);
      const filled = outcome?.filled ? await cache.get(key) : undefined;
      if (filled) return sendCacheable(req, res, filled.body, CACHING.history);
      if (cached) return sendCacheable(req, res, cached.body, CACHING.history, Math.round((this.deps.now() - cached.storedAt) / 1000));
      return sendUpstreamError(res, errorOf(outcome));
    }
    try {
      sendCacheable(req, res, await this.fetchHistory(key, symbol, days), CACHING.history);
    } catch (error) {
      if (cached) return sendCacheable(req, res, cached.body, CACHING.history, Math.round((this.deps.now() - cached.storedAt) / 1000));
      sendUpstreamError(res, error);
    }
  }

  /** On the leader: fills a cache key a follower asked for (history, symbols), with the usual budget rules. */
  async fill(key: string): Promise<AskOutcome> {
    try {
      if (key === 'symbols') {
        await this.deps.feed.catalog();
        return { filled: true };
      }
      const m = /^history:([a-z0-9_]{1,64}):(\d{1,3})$/.exec(key);
      if (!m) return { filled: false, error: { code: 'bad_request', status: 400 } };
      const cached = await this.deps.engine.cache.get(key);
      // Another asker's request may have filled it meanwhile.
      if (!cached || this.deps.now() - cached.storedAt >= HISTORY_TTL_MS) await this.fetchHistory(key, m[1]!, Number(m[2]));
      return { filled: true };
    } catch (error) {
      return outcomeOf(error);
    }
  }

  /** One upstream request per (symbol, days) however many ask at once, on any member. */
  private fetchHistory(key: string, symbol: string, days: number): Promise<string> {
    let pending = this.historyRequests.get(key);
    if (!pending) {
      pending = this.history
        .history(symbol, days)
        .then(async (body) => {
          const text = JSON.stringify(body);
          await this.deps.engine.cache.set(key, { body: text, storedAt: this.deps.now() });
          return text;
        })
        .finally(() => this.historyRequests.delete(key));
      this.historyRequests.set(key, pending);
    }
    return pending;
  }

  /** Opens a downstream stream (resuming after `Last-Event-ID` when the buffer still holds it). */
  async stream(req: IncomingMessage, res: ServerResponse, url: URL, release: () => void): Promise<void> {
    const known = await this.known(res);
    const ids = known && requestedSymbols(res, url, (id) => known.has(id));
    if (!ids) return release();
    this.deps.feed.use(ids);
    // Registered before its first events are read, so no change falls in between.
    const start = this.deps.fanout.open(res, ids, release);
    const lastId = req.headers['last-event-id'];
    let missed: RelayEvent[] | undefined;
    if (typeof lastId === 'string' && /^\d{1,15}$/.test(lastId)) missed = await this.deps.engine.state.since(Number(lastId), new Set(ids));
    if (missed) return start({ missed });
    const snap = await this.deps.feed.ready(ids, READY_TIMEOUT_MS);
    start({ snapshot: { ...snap, at: new Date(this.deps.now()).toISOString() } });
  }
}
