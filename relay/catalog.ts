/**
 * The symbol catalog (DESIGN.md §7.1): the upstream's list within SYMBOLS, cached, fetched once
 * for all askers (a follower asks the leader), its failures remembered with capped backoff and the
 * stale list, if any, served meanwhile.
 *
 * Only the upstream's own failures count: a request the gate refused here (a pause of another
 * path, the budget, not leading) waits for that refusal only, and a failure of the upstream as a
 * whole (unreachable, 5xx, timeout) ends as soon as any upstream request succeeds again.
 */
import { ASK_TIMEOUT_MS, errorOf } from './asks';
import type { Engine } from './engine/types';
import { fetchSymbols, parseSymbolsBody, PriceBoardError, type SymbolInfo } from './from-src';
import type { Logger } from './log';
import { isLocalRefusal } from './local-answers';
import type { UpstreamGate } from './upstream';

/** The catalog is asked for again after this long (a cached copy is served meanwhile). */
const CATALOG_TTL_MS = 60 * 60_000;
/** A failed catalog request is not repeated for this long, doubling per failure up to the cap. */
const CATALOG_RETRY_MS = 5_000;
const CATALOG_RETRY_MAX_MS = 10 * 60_000;
/** Failures of the upstream as a whole, not of its catalog. */
const OUTAGES = new Set(['network', 'server', 'timeout']);

export interface CatalogOptions {
  baseUrl: string;
  apiKey: string;
  engine: Engine;
  gate: UpstreamGate;
  log: Logger;
  /** SYMBOLS: only these are served. */
  allow?: readonly string[];
  now: () => number;
  closed: () => boolean;
}

export class Catalog {
  /** The served ids of the last list: quotes of any other id are dropped. */
  known: Set<string> | undefined;
  #request: Promise<SymbolInfo[]> | undefined;
  #retryAt = 0;
  #failures = 0;
  #failedAt = 0;
  #outage = false;
  #error: unknown;

  readonly #options: CatalogOptions;

  constructor(options: CatalogOptions) {
    this.#options = options;
  }

  /** A new leader asks afresh: failures remembered while another led (or while Redis was away) are not its own. */
  forget(): void {
    this.#retryAt = 0;
    this.#failures = 0;
  }

  async get(): Promise<SymbolInfo[]> {
    const { engine, now } = this.#options;
    const { cache, leader, asks } = engine;
    let cached = await cache.get('symbols');
    // A follower never asks upstream: it asks the leader to fill the shared catalog (and waits for
    // it when it has none; a stale one is served meanwhile).
    if (!leader.isLeader && !this.#options.closed() && (!cached || now() - cached.storedAt >= CATALOG_TTL_MS)) {
      const asked = asks.ask('symbols', ASK_TIMEOUT_MS, cached?.storedAt);
      if (!cached) {
        const outcome = await asked;
        cached = await cache.get('symbols');
        if (!cached) throw errorOf(outcome);
      }
    }
    const stale = (): SymbolInfo[] => this.#allowed(parseSymbolsBody(JSON.parse(cached!.body)));
    if (cached && (now() - cached.storedAt < CATALOG_TTL_MS || !leader.isLeader)) return stale();
    // The upstream answered since it failed as a whole: it is back.
    if (this.#outage && this.#options.gate.lastOkAt > this.#failedAt) this.forget();
    if (now() < this.#retryAt) {
      if (cached) return stale();
      throw this.#error;
    }
    this.#request ??= this.#fetch(Boolean(cached)).finally(() => (this.#request = undefined));
    try {
      return this.#allowed(await this.#request);
    } catch (error) {
      // An old list beats no list.
      if (cached) return stale();
      throw error;
    }
  }

  async #fetch(staleServed: boolean): Promise<SymbolInfo[]> {
    const { baseUrl, apiKey, gate, engine, now } = this.#options;
    let list: SymbolInfo[];
    try {
      // Not the quotes' priority: the catalog never spends the slots kept for quotes.
      list = await fetchSymbols({ baseUrl, apiKey, fetch: gate.fetchFor('other') });
    } catch (error) {
      this.#failed(error, staleServed);
      throw error;
    }
    await engine.cache.set('symbols', { body: JSON.stringify({ data: { symbols: list } }), storedAt: now() });
    this.forget();
    return list;
  }

  #failed(error: unknown, staleServed: boolean): void {
    const known = error instanceof PriceBoardError ? error : undefined;
    // Refused here for not leading (a lock changing hands): nothing failed upstream, and the next
    // leader asks at once.
    if (known?.data?.serviceCode === 'not_leader') return;
    // Refused by the gate (another path's pause, the budget): nothing was asked, so nothing
    // failed; again once the gate allows. The upstream failing as a whole (the gate paces it too)
    // is retried after the first step, and any upstream success ends the wait. Only the catalog's
    // own failures (a body it cannot read, a refusal) back off further.
    const local = isLocalRefusal(error);
    this.#outage = local || OUTAGES.has(known?.code ?? 'network');
    let wait = Math.max(known?.retryAfterMs ?? 0, this.#options.gate.pausedFor('symbols'));
    if (!local) {
      if (!this.#outage) this.#failures += 1;
      const step = CATALOG_RETRY_MS * 2 ** Math.min(Math.max(0, this.#failures - 1), 20);
      wait = Math.max(wait, Math.min(CATALOG_RETRY_MAX_MS, step));
    }
    this.#failedAt = this.#options.now();
    this.#retryAt = this.#failedAt + wait;
    this.#error = error;
    this.#options.log('catalog_failed', {
      code: known?.code ?? 'internal',
      status: known?.status,
      retry_in_ms: wait,
      stale_served: staleServed,
    });
  }

  #allowed(list: SymbolInfo[]): SymbolInfo[] {
    const allow = this.#options.allow;
    const served = allow ? list.filter((s) => allow.includes(s.symbol)) : list;
    this.known = new Set(served.map((s) => s.symbol));
    return served;
  }
}
