/**
 * The one gate every upstream request goes through: the `fetch` handed to the src/api client and
 * the src/live stream. It spends the budget and keeps the upstream's state (DESIGN.md §7.1):
 *
 * - a refusal of one resource (403/404 on one symbol's history, one span) is remembered for that
 *   resource only and answered locally for a while;
 * - a pause (429 with Retry-After, clamped; 5xx and network failures, capped backoff) is scoped:
 *   one on history or on the catalog pauses that path only, one on prices or the stream pauses
 *   everything (quotes come first);
 * - a 403 on prices or the stream naming symbols not yet proven is sorted out first: one catalog
 *   request tells the key from the symbols, then halves of the symbols find the refused ones
 *   (relay/refused-symbols.ts), which alone are refused for a while;
 * - a refusal of the key itself (401 anywhere; 403 on symbols, or on prices or the stream naming
 *   only symbols proven, or the catalog refusing the key during that sorting out) halts upstream
 *   requests, and one cheap probe every {@link UpstreamTimings.probeMs} tells when the key works
 *   again: the gate reopens by itself and says so to its listeners.
 *
 * A refused request gets a local answer shaped like the service's (429 with Retry-After, or the
 * remembered 401/403/404), so the clients' own error handling applies and nothing retries in a storm.
 */
import { parseRetryAfter, type FetchLike } from './from-src';
import type { Budget, Priority } from './budget';
import { localAnswer, symbolsRefused } from './local-answers';
import { isolateRefused } from './refused-symbols';
import type { Leader } from './engine/types';
import type { Logger } from './log';
import type { Metrics } from './metrics';
import {
  catalogUrl,
  namedSymbols,
  pathLabel,
  scopeOf,
  serviceCode,
  type Scope,
  type UpstreamPath,
} from './upstream-request';

export type { UpstreamPath } from './upstream-request';

/** Retry-After from upstream is believed within these bounds. */
export const MIN_PAUSE_MS = 1_000;
export const MAX_PAUSE_MS = 5 * 60_000;
/** 5xx backoff: doubles from the base up to the cap. */
const BACKOFF_BASE_MS = 1_000;
const BACKOFF_MAX_MS = 60_000;
/** A 403/404 of one resource is answered locally this long, for at most this many resources. */
const REFUSAL_TTL_MS = 10 * 60_000;
const MAX_REFUSALS = 1_000;

/** The intervals of the upstream state machine (shorter in tests). */
export interface UpstreamTimings {
  /** While the key is refused: one probe this often. Default 3 min. */
  probeMs?: number;
  /** Symbols asked for meanwhile join the upstream stream at most this often (one reconnect). Default 30 s. */
  resubscribeMs?: number;
  /** After the stream failed: the first retry of it while polling; doubles up to `streamRetryMaxMs`. Default 10 s. */
  streamRetryMs?: number;
  /** Default 5 min. */
  streamRetryMaxMs?: number;
  /** Data older than this, or an open stream that said nothing readable for this long, is stale. Default 60 s. */
  staleAfterMs?: number;
}

export interface UpstreamOptions {
  budget: Budget;
  leader: Leader;
  metrics: Metrics;
  log: Logger;
  now?: () => number;
  fetch?: FetchLike;
  timings?: UpstreamTimings;
}

export class UpstreamGate {
  /** Set when the key is refused: nothing but the probe is sent. */
  halted: { status: number; code: string } | undefined;
  /** Epoch ms of the last 2xx from upstream (0: none yet). */
  lastOkAt = 0;
  readonly #pausedUntil: Record<Scope, number> = { quotes: 0, prices: 0, stream: 0, history: 0, symbols: 0 };
  readonly #failures: Record<Scope, number> = { quotes: 0, prices: 0, stream: 0, history: 0, symbols: 0 };
  /** Resource (path and query) → the refusal remembered for it. Oldest first. */
  readonly #refusals = new Map<string, { status: number; code: string; until: number }>();
  /** Symbols a 2xx of prices or the stream named: a 403 naming only these refuses the key. */
  readonly #goodSymbols = new Set<string>();
  /** Symbol → until when it is refused (a 403 naming it beside good ones). Oldest first. */
  readonly #refusedSymbols = new Map<string, number>();
  /** The isolation of refused symbols under way: resolves with the key's refusal status, if the key is refused. */
  #isolating: Promise<number | undefined> | undefined;
  /** The gate's own answers (requests not sent): nothing to learn from them. */
  readonly #localAnswers = new WeakSet<Response>();
  #probeTimer: NodeJS.Timeout | undefined;
  readonly #reopened = new Set<() => void>();
  readonly #now: () => number;

  readonly #options: UpstreamOptions;

  constructor(options: UpstreamOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** A fetch for the clients of one priority. */
  fetchFor(priority: Priority): FetchLike {
    return (input, init) => this.#request(priority, input, init);
  }

  /** Milliseconds until requests on `path` may go again (0: now). */
  pausedFor(path: UpstreamPath): number {
    const scope = scopeOf(path);
    const until =
      scope === 'quotes' ? this.#pausedUntil.quotes : Math.max(this.#pausedUntil.quotes, this.#pausedUntil[scope]);
    return Math.max(0, until - this.#now());
  }

  /** Whether `symbol` is refused for now (a 403 named it beside symbols that work). */
  refuses(symbol: string): boolean {
    return (this.#refusedSymbols.get(symbol) ?? 0) > this.#now();
  }

  /** Called when a halted key works again. Returns the unsubscribe function. */
  onReopen(listener: () => void): () => void {
    this.#reopened.add(listener);
    return () => this.#reopened.delete(listener);
  }

  close(): void {
    clearTimeout(this.#probeTimer);
    this.#probeTimer = undefined;
    this.#reopened.clear();
  }

  #refuse(path: UpstreamPath, reason: string, res: Response): Response {
    this.#options.metrics.inc('relay_upstream_refused_total', 'Upstream requests not sent, by reason.', {
      path,
      reason,
    });
    this.#localAnswers.add(res);
    return res;
  }

  async #request(priority: Priority, input: string, init: RequestInit): Promise<Response> {
    const url = new URL(input);
    const path = pathLabel(url.pathname);
    const resource = url.pathname + url.search;
    if (this.halted)
      return this.#refuse(path, 'halted', localAnswer(this.halted.status, 'key_refused', 'upstream refused the key'));
    if (!this.#options.leader.isLeader)
      return this.#refuse(path, 'not_leader', localAnswer(503, 'not_leader', 'another process spends the budget'));
    const named = namedSymbols(url);
    const refusedSymbols = named.filter((s) => this.refuses(s));
    if (refusedSymbols.length > 0) return this.#refuse(path, 'refused_resource', symbolsRefused(refusedSymbols));
    const refusal = this.#refusals.get(resource);
    if (refusal && refusal.until > this.#now())
      return this.#refuse(
        path,
        'refused_resource',
        localAnswer(refusal.status, refusal.code, 'upstream refused this resource'),
      );
    const wait = this.pausedFor(path);
    if (wait > 0)
      return this.#refuse(path, 'backoff', localAnswer(429, 'relay_paused', 'upstream asked us to wait', wait));
    const res = await this.#send(priority, path, input, init);
    if (this.#localAnswers.has(res)) return res;
    if (res.ok) {
      for (const s of named) this.#goodSymbols.add(s);
      return res;
    }
    // A 403 naming symbols never answered before: those may be outside the plan (SERVICE-SPEC §8)
    // rather than the key refused. Which ones is found out before anything is concluded.
    const untried = named.filter((s) => !this.#goodSymbols.has(s));
    if (res.status === 403 && untried.length > 0) return this.#isolate(priority, path, untried, res, input, init);
    await this.#learn(path, resource, res, input, init);
    return res;
  }

  /** Spends the budget on one request, sends it and counts it; answers locally when the budget or the lead says no. */
  async #send(priority: Priority, path: UpstreamPath, input: string, init: RequestInit): Promise<Response> {
    const taken = await this.#options.budget.take(priority);
    // Fenced: another process took the lead while this one was paused or cut off.
    if (!taken.ok && taken.fenced)
      return this.#refuse(path, 'fenced', localAnswer(503, 'not_leader', 'another process spends the budget'));
    if (!taken.ok)
      return this.#refuse(
        path,
        'budget',
        localAnswer(429, 'relay_budget', 'the relay budget is spent', taken.retryAfterMs),
      );

    let res: Response;
    try {
      res = await (this.#options.fetch ?? globalThis.fetch)(input, init);
    } catch (error) {
      this.#options.metrics.inc('relay_upstream_requests_total', 'Upstream requests by path and status.', {
        path,
        status: 'network',
      });
      // Unreachable is treated as 5xx; an abort is the caller's (a re-subscribe, a timeout).
      if (!init.signal?.aborted) this.#backOff(path, 'network');
      throw error;
    }
    this.#options.metrics.inc('relay_upstream_requests_total', 'Upstream requests by path and status.', {
      path,
      status: String(res.status),
    });
    if (res.ok) {
      this.#failures[scopeOf(path)] = 0;
      this.lastOkAt = this.#now();
    }
    return res;
  }

  /**
   * A 403 named symbols not proven (`untried`). One cheap request for the catalog tells whether the
   * key itself is refused (then the relay halts as before); otherwise the refused symbols are
   * isolated by halves ({@link isolateRefused}), each request through the budget and the pauses,
   * and only they are refused. Concurrent 403s wait for the one isolation under way.
   */
  async #isolate(
    priority: Priority,
    path: UpstreamPath,
    untried: string[],
    res: Response,
    input: string,
    init: RequestInit,
  ): Promise<Response> {
    const pending = this.#isolating ?? this.#isolation(priority, path, untried, input, init);
    this.#isolating = pending;
    const keyRefused = await pending.finally(() => {
      if (this.#isolating === pending) this.#isolating = undefined;
    });
    if (keyRefused !== undefined) {
      this.#halt(path, keyRefused, input, init);
      return res;
    }
    await res.body?.cancel().catch(() => {});
    const refused = untried.filter((s) => this.refuses(s));
    if (refused.length > 0) return symbolsRefused(refused);
    if (this.halted)
      return this.#refuse(path, 'halted', localAnswer(this.halted.status, 'key_refused', 'upstream refused the key'));
    // Nothing decided (a pause, the budget, the cap): asked again once the pauses allow, knowing what was proven.
    const wait = Math.max(MIN_PAUSE_MS, this.pausedFor('prices'), this.pausedFor('symbols'));
    return localAnswer(429, 'relay_paused', 'upstream refusals are being sorted out', wait);
  }

  /** Resolves with the key's refusal status (401/403), or undefined once the refused symbols found are remembered. */
  async #isolation(
    priority: Priority,
    path: UpstreamPath,
    untried: string[],
    input: string,
    init: RequestInit,
  ): Promise<number | undefined> {
    const headers = new Headers(init.headers);
    headers.delete('last-event-id');
    headers.set('Accept', 'application/json');
    const plain = { method: 'GET', headers, redirect: init.redirect };
    if (this.pausedFor('symbols') > 0) return undefined;
    const probe = await this.#send(priority, 'symbols', catalogUrl(input), {
      ...plain,
      signal: AbortSignal.timeout(10_000),
    });
    if (this.#localAnswers.has(probe)) return undefined;
    const refusal = probe.status === 401 || probe.status === 403;
    // A 429 or 5xx of the catalog pauses it as anywhere else.
    if (!probe.ok && !refusal) await this.#learn('symbols', '/v1/symbols', probe, catalogUrl(input), plain);
    await probe.body?.cancel().catch(() => {});
    if (refusal) return probe.status;
    if (!probe.ok) return undefined;
    const found = await isolateRefused(untried, async (symbols) => {
      if (this.halted || this.pausedFor('prices') > 0) return 'unknown';
      const url = input.replace(/\/v1\/[^?]*(\?.*)?$/, `/v1/prices?symbols=${symbols.join(',')}`);
      const answer = await this.#send(priority, 'prices', url, { ...plain, signal: AbortSignal.timeout(10_000) });
      if (this.#localAnswers.has(answer)) return 'unknown';
      if (answer.status === 403) {
        await answer.body?.cancel().catch(() => {});
        return 'refused';
      }
      if (!answer.ok) await this.#learn('prices', new URL(url).pathname, answer, url, plain);
      await answer.body?.cancel().catch(() => {});
      return answer.ok ? 'ok' : 'unknown';
    }).catch(() => undefined);
    for (const s of found?.proven ?? []) this.#goodSymbols.add(s);
    if (found && found.refused.length > 0) this.#refuseSymbols(path, found.refused);
    return undefined;
  }

  #refuseSymbols(path: UpstreamPath, symbols: string[]): void {
    for (const s of symbols) {
      this.#refusedSymbols.delete(s);
      this.#refusedSymbols.set(s, this.#now() + REFUSAL_TTL_MS);
    }
    while (this.#refusedSymbols.size > MAX_REFUSALS)
      this.#refusedSymbols.delete(this.#refusedSymbols.keys().next().value!);
    this.#options.log('upstream_symbols_refused', { path, status: 403, symbols });
  }

  async #learn(path: UpstreamPath, resource: string, res: Response, input: string, init: RequestInit): Promise<void> {
    const scope = scopeOf(path);
    const keyRefused = res.status === 401 || (res.status === 403 && scope !== 'history');
    if (keyRefused) return this.#halt(path, res.status, input, init);
    if (res.status === 403 || res.status === 404) {
      // One resource refused ("not in the plan", an unknown symbol): that resource only.
      if (scope !== 'history') return;
      const code = (await serviceCode(res)) ?? (res.status === 403 ? 'forbidden' : 'not_found');
      this.#refusals.delete(resource);
      this.#refusals.set(resource, { status: res.status, code, until: this.#now() + REFUSAL_TTL_MS });
      if (this.#refusals.size > MAX_REFUSALS) this.#refusals.delete(this.#refusals.keys().next().value!);
      this.#options.log('upstream_resource_refused', { path, status: res.status, code });
    } else if (res.status === 429) {
      // A second stream beside the first, refused by a per-key cap on streams: no rate limit.
      if (path === 'stream' && (await serviceCode(res)) === 'too_many_streams') return;
      const ms = parseRetryAfter(res.headers.get('retry-after'), this.#now()) ?? MIN_PAUSE_MS * 5;
      // A rate limit on quotes is the key's: it pauses everything.
      this.#pause(
        scope === 'history' || scope === 'symbols' ? scope : 'quotes',
        Math.min(MAX_PAUSE_MS, Math.max(MIN_PAUSE_MS, ms)),
        path,
        res.status,
      );
    } else if (res.status >= 500) {
      this.#backOff(path, res.status);
    }
  }

  /** The key is refused: no request but a probe until one succeeds. */
  #halt(path: UpstreamPath, status: number, input: string, init: RequestInit): void {
    const first = !this.halted;
    this.halted = { status, code: status === 401 ? 'unauthorized' : 'forbidden' };
    if (first) {
      const probeMs = this.#options.timings?.probeMs ?? 3 * 60_000;
      this.#options.log('upstream_key_refused', {
        path,
        status,
        probe_every_s: Math.round(probeMs / 1000),
        message:
          'the upstream refused UPSTREAM_KEY: no upstream requests but one probe now and then; visitors keep the last data',
      });
      // The cheapest request there is: the catalog, with the same headers (the key).
      this.#scheduleProbe(
        catalogUrl(input),
        { method: 'GET', headers: init.headers, redirect: init.redirect },
        probeMs,
      );
    }
  }

  #scheduleProbe(url: string, init: RequestInit, ms: number): void {
    clearTimeout(this.#probeTimer);
    this.#probeTimer = setTimeout(() => void this.#probe(url, init, ms), ms);
    this.#probeTimer.unref();
  }

  async #probe(url: string, init: RequestInit, ms: number): Promise<void> {
    this.#probeTimer = undefined;
    let status: number | 'network' = 'network';
    if (this.#options.leader.isLeader && (await this.#options.budget.take('other')).ok) {
      try {
        const res = await (this.#options.fetch ?? globalThis.fetch)(url, {
          ...init,
          signal: AbortSignal.timeout(10_000),
        });
        status = res.status;
        await res.body?.cancel().catch(() => {});
      } catch {
        // Unreachable: the key is not known to work; try again later.
      }
      this.#options.metrics.inc('relay_upstream_requests_total', 'Upstream requests by path and status.', {
        path: 'symbols',
        status: String(status),
      });
    }
    if (!this.halted) return;
    if (typeof status === 'number' && status >= 200 && status < 300) {
      this.halted = undefined;
      this.#options.log('upstream_key_accepted', {
        message: 'the upstream accepts UPSTREAM_KEY again: upstream requests resume',
      });
      for (const listener of [...this.#reopened]) listener();
      return;
    }
    this.#scheduleProbe(url, init, ms);
  }

  /** Capped exponential backoff with equal jitter over consecutive failures of one scope. */
  #backOff(path: UpstreamPath, status: number | 'network'): void {
    const scope = scopeOf(path);
    this.#failures[scope] += 1;
    const cap = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.min(this.#failures[scope] - 1, 16));
    this.#pause(scope, cap / 2 + (cap / 2) * Math.random(), path, status);
  }

  #pause(scope: Scope, ms: number, path: UpstreamPath, status: number | 'network'): void {
    this.#pausedUntil[scope] = Math.max(this.#pausedUntil[scope], this.#now() + ms);
    this.#options.log('upstream_backoff', { path, scope, status, wait_ms: Math.round(ms) });
  }
}
