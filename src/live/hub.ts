/**
 * What the widgets use: `subscribe(options, symbols, listener)`. Widgets with the same connection
 * (service, key, stream settings: {@link connectionOf}) share one {@link Hub}, made at the first
 * subscription: one quote store, one stream or poller, one `/v1/prices` request per tick for the
 * union of their symbols (DESIGN.md §6 sharing, §12). The hub owns the quotes, its subscribers
 * and its status; its driver (`driver.ts`) brings the quotes.
 */
import type { PricesOutcome } from '../api/unknown-symbols';
import { QuoteStore } from '../model/quote-store';
import { SYMBOL_ID } from '../shared/attribute-table';
import { endsRetries, PriceBoardError } from '../shared/errors';
import type { ConnectionStatus, Quote } from '../shared/types';
import { connectionOf, normalizeSymbols, type Connection, type HubOptions } from './connection';
import { Driver, type DriverEvent } from './driver';
import { HubStatus } from './hub-status';
import { navigatorOnline } from './online';
import { pageGlobal } from './page-global';
import { afterOurScripts } from './page-scripts';
import { clampPollMs, isNetworkFailure } from './policy';
import { Subscriber, type HubListener, type QuotesMeta } from './subscriber';

export type { Connection, HubOptions } from './connection';
export type { HubEvent, HubListener, QuotesMeta } from './subscriber';

/** A subscriber's handle. */
export interface Subscription {
  /** The quote the hub holds for `symbol`, if it is one of mine. */
  get(symbol: string): Quote | undefined;
  /** Re-subscribe (union re-computed; stream reopened only if it grows). */
  setSymbols(symbols: string[]): void;
  /** Re-fetch quotes now (shared by every subscriber of the hub). */
  refresh(): Promise<void>;
  /** Last one out closes the connection and timers. */
  close(): void;
}

/** The page's hubs by connection key, whichever copy of this module made them. */
const hubs = pageGlobal('price-board/hubs/1', new Map<string, Hub>());

/**
 * Subscribes `listener` to quotes of `symbols`. Right after (in a microtask) it gets the status,
 * the quotes already known and the symbols known to be missing; then every applied change.
 * Subscriptions made in the same tick share one `/v1/prices` request and one stream.
 */
export function subscribe(options: HubOptions, symbols: string[], listener: HubListener): Subscription {
  return hubOf(options).subscribe(normalizeSymbols(symbols), listener, options.pollInterval);
}

/** The page's open hub of `options`' connection, made if there is none. */
function hubOf(options: HubOptions): Hub {
  const connection = connectionOf(options);
  let hub = hubs.get(connection.key);
  if (!hub || hub.closed) hubs.set(connection.key, (hub = new Hub(connection, options)));
  return hub;
}

/** Quotes the page already shows (the relay's render), with the stream event id they correspond to. */
export interface HeldSnapshot {
  quotes: readonly Quote[];
  meta: QuotesMeta;
  eventId: string;
  /** Ids the relay that rendered it does not serve: never asked for; their subscribers are told. */
  unknown?: readonly string[];
}

/**
 * The hub of `options` starts from `snapshot` as if it had fetched it: no `/v1/prices` request for
 * its symbols, and the stream resumes after its event id. Call before the first subscription.
 */
export function startFrom(options: HubOptions, snapshot: HeldSnapshot): void {
  hubOf(options).startFrom(snapshot);
}

/**
 * Sends now the requests that subscriptions made so far in this task would send in a microtask
 * (each hub's one `/v1/prices` request for the union of its new symbols). For a caller that has
 * made every subscription of the task and wants the requests out before other queued work, e.g.
 * the boards' first render.
 */
export function flushSubscriptions(): void {
  for (const hub of hubs.values()) hub.flushNow();
}

/** Number of hubs alive (tests: 0 once every subscription is closed). */
export function hubCount(): number {
  return hubs.size;
}

function unknownSymbolError(symbols: string[]): PriceBoardError {
  return new PriceBoardError('unknown_symbol', `Unknown symbols: ${symbols.join(', ')}`, {
    status: 404,
    data: { symbols },
  });
}

/** One shared feed of quotes: the quotes of one connection, their subscribers and the status. */
export class Hub {
  readonly #connection: Connection;
  /** The one merge of every answer and event (corrections included: `QuoteStore.apply`). */
  readonly #store = new QuoteStore();
  readonly #subscribers = new Set<Subscriber>();
  readonly #driver: Driver;
  readonly #state: HubStatus;
  readonly #unwatchOnline: () => void;
  /** Ids the service rejected: never asked for again. */
  readonly #unknown = new Set<string>();
  /** Ids an answer left out, until a quote of theirs comes. */
  readonly #omitted = new Set<string>();
  #pollMs = clampPollMs(NaN);
  #meta: QuotesMeta = {};
  /** The status last delivered. */
  #status: ConnectionStatus = 'loading';
  #lastReported: string | undefined;
  #flushQueued = false;
  /** The driver stopped for good (a final error, or closed). */
  #stopped = false;
  #closed = false;

  constructor(connection: Connection, options: HubOptions) {
    this.#connection = connection;
    const online = options.online ?? navigatorOnline();
    this.#state = new HubStatus(online);
    // stream="off": nothing follows the quotes after the first answer (refresh() asks again).
    if (connection.mode === 'off') this.#state.driver = 'idle';
    this.#driver = new Driver(
      {
        ...connection,
        fetch: options.fetch,
        visibility: options.visibility,
        timeoutMs: options.timeoutMs,
        retry: options.retry,
        watchdogMs: options.watchdogMs,
        sseRetryMs: options.sseRetryMs,
        fetchRetry: options.fetchRetry,
      },
      (event) => this.#ingest(event),
    );
    this.#unwatchOnline = online.subscribe((isOnline) => this.#onlineChanged(isOnline));
  }

  /** Whether it was closed (its last subscriber left). */
  get closed(): boolean {
    return this.#closed;
  }

  /** See {@link startFrom}. */
  startFrom(snapshot: HeldSnapshot): void {
    // The relay's answer for ids it does not serve, as a 404 would be: never asked for.
    for (const s of snapshot.unknown ?? []) this.#unknown.add(s);
    if (snapshot.unknown?.length) this.#state.hasData = true;
    if (snapshot.quotes.length === 0) return;
    this.#meta = { ...this.#meta, ...snapshot.meta };
    this.#store.apply([...snapshot.quotes]);
    this.#state.hasData = this.#state.seeded = this.#state.held = true;
    // Resuming covers only the snapshot's symbols: a stream for more sends its own snapshot.
    this.#driver.resumeFrom({ id: snapshot.eventId, symbols: snapshot.quotes.map((q) => q.symbol) });
    this.#updateStatus();
  }

  /** Adds a subscriber; it gets the status, known quotes and missing symbols in a microtask. */
  subscribe(symbols: string[], listener: HubListener, pollSeconds: number): Subscription {
    const sub = new Subscriber(symbols, listener, pollSeconds);
    this.#subscribers.add(sub);
    this.#queueFlush();
    return {
      get: (symbol) => (sub.wants(symbol) ? this.#store.get(symbol) : undefined),
      setSymbols: (next) => {
        if (sub.closed) return;
        sub.setSymbols(normalizeSymbols(next));
        this.#queueFlush();
      },
      refresh: () => (sub.closed || this.#stopped ? Promise.resolve() : this.#driver.refresh()),
      close: () => this.#remove(sub),
    };
  }

  /**
   * Serves what was subscribed so far at once instead of in the queued microtask (nothing when no
   * flush is queued). The board calls it (through `flushSubscriptions`) once every board connected
   * in a task has subscribed, so the prices request leaves before their first render.
   */
  flushNow(): void {
    if (this.#flushQueued) this.#flush();
  }

  /** Removes a subscriber; the hub closes when none is left by the end of the tick. */
  #remove(sub: Subscriber): void {
    if (sub.closed) return;
    sub.closed = true;
    this.#subscribers.delete(sub);
    if (this.#subscribers.size > 0) {
      this.#queueFlush();
      return;
    }
    // Not at once: an element moved in the DOM unsubscribes and subscribes again in one tick.
    queueMicrotask(() => {
      if (this.#subscribers.size === 0) this.#close();
    });
  }

  /** Stops everything and leaves the registry. */
  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#stop();
    this.#unwatchOnline();
    if (hubs.get(this.#connection.key) === this) hubs.delete(this.#connection.key);
  }

  #stop(): void {
    this.#stopped = true;
    this.#driver.stop();
  }

  #queueFlush(): void {
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    // Everything subscribed in this tick (or, on a page loading several of our scripts, before
    // DOMContentLoaded) is served by one request and one stream.
    afterOurScripts(() => this.flushNow());
  }

  #flush(): void {
    this.#flushQueued = false;
    if (this.#closed) return;
    const missing = this.#missingSymbols();
    const malformed = new Set<string>();
    for (const sub of this.#subscribers) {
      const pending = sub.takePending();
      if (!pending) continue;
      sub.status(this.#status, this.#state.held);
      if (pending.first && this.#state.finalError) sub.error(this.#state.finalError);
      sub.quotes(
        pending.symbols.map((s) => this.#store.get(s)).filter((q): q is Quote => q !== undefined),
        this.#meta,
      );
      sub.missing(missing);
      // Ids already known to be unknown: this subscriber has not been told yet.
      const rejected = pending.symbols.filter((s) => this.#unknown.has(s));
      if (rejected.length > 0) sub.error(unknownSymbolError(rejected));
      // Ids as SERVICE-SPEC 2.3 spells them (SYMBOL_ID): anything else is unknown without asking,
      // as one malformed id would make the service reject (400) every board's request.
      for (const s of pending.symbols) if (!SYMBOL_ID.test(s) && !this.#unknown.has(s)) malformed.add(s);
    }
    if (malformed.size > 0) this.#markUnknown([...malformed]);
    if (this.#stopped) return;
    this.#pollMs = Math.min(...[...this.#subscribers].map((s) => clampPollMs(s.pollSeconds * 1000)));
    // The prices request first: the rows wait for it, not for the stream.
    this.#driver.fetch(this.#unsettled());
    this.#driver.follow(this.#union(), this.#pollMs);
  }

  /** Every subscriber's symbols, in first-seen order, without those the service rejected. */
  #union(): string[] {
    const all = new Set<string>();
    for (const sub of this.#subscribers) for (const s of sub.symbols) if (!this.#unknown.has(s)) all.add(s);
    return [...all];
  }

  /** Followed symbols that need a fetch: no quote held, and not known to be left out by the service. */
  #unsettled(): string[] {
    return this.#union().filter((s) => !this.#store.has(s) && !this.#omitted.has(s));
  }

  /** Whether a subscriber has `symbol`. */
  #wanted(symbol: string): boolean {
    for (const sub of this.#subscribers) if (sub.wants(symbol)) return true;
    return false;
  }

  #missingSymbols(): Set<string> {
    return new Set([...this.#unknown, ...this.#omitted]);
  }

  /** What the driver learned. */
  #ingest(event: DriverEvent): void {
    if (this.#stopped) return;
    switch (event.kind) {
      case 'prices':
        return this.#received(event.outcome);
      case 'stream':
        if (event.at) this.#meta = { ...this.#meta, at: event.at };
        this.#succeeded();
        return this.#deliver(event.quotes);
      case 'state':
        this.#state.driver = event.state;
        if (event.state === 'live') this.#succeeded();
        return this.#updateStatus();
      case 'failure':
        return this.#failure(event.error, event.source, event.connectFailed);
      case 'stopped':
        return this.#fail(event.error);
      case 'unknown':
        return this.#markUnknown(event.symbols);
      case 'retry':
        return this.#driver.fetch(this.#unsettled());
    }
  }

  #received({ data, unknown, missing }: PricesOutcome): void {
    // A new delay (the first answer's, say) is told with every quote held, even where the stream's
    // snapshot came first and the answer changes nothing.
    const retell = !!data && data.delay_seconds !== this.#meta.delaySeconds;
    if (data) this.#meta = { delaySeconds: data.delay_seconds, at: data.at };
    this.#succeeded();
    // A quote held (the stream's snapshot may come before or after this answer) wins over the
    // answer leaving the symbol out: either order ends with the quote shown, not missing.
    for (const s of missing) if (!unknown.includes(s) && !this.#store.has(s)) this.#omitted.add(s);
    this.#deliver(data?.quotes ?? [], retell);
    this.#markUnknown(unknown);
  }

  /**
   * Applies quotes of subscribed symbols to the store and hands the applied ones to their
   * subscribers. Others are dropped unread: a service pushing ids nobody asked for must not grow
   * the store without bound.
   */
  #deliver(given: readonly Quote[], retell?: boolean): void {
    // Asked per quote, not through the union: a stream event comes per quote, and a set of every
    // symbol made for each was most of what a board under a live load allocated (4 of 13 MB/s).
    const quotes = given.filter((q) => !this.#unknown.has(q.symbol) && this.#wanted(q.symbol));
    this.#state.hasData = true;
    const wasMissing = quotes.some((q) => this.#omitted.delete(q.symbol));
    const applied = this.#store.apply(quotes);
    const told = retell ? this.#store.all() : applied;
    if (told.length > 0) for (const sub of this.#subscribers) sub.quotes(told, this.#meta);
    if (wasMissing) this.#reportMissing();
    this.#updateStatus();
  }

  /** Ids the service rejected: never asked for again; their subscribers are told once. */
  #markUnknown(symbols: readonly string[]): void {
    const fresh = symbols.filter((s) => !this.#unknown.has(s));
    for (const s of fresh) this.#unknown.add(s);
    for (const s of symbols) this.#omitted.delete(s);
    this.#reportMissing();
    if (fresh.length === 0) return;
    for (const sub of this.#subscribers) {
      const mine = fresh.filter((s) => sub.wants(s));
      if (mine.length > 0) sub.error(unknownSymbolError(mine));
    }
    if (!this.#stopped) this.#driver.follow(this.#union(), this.#pollMs);
  }

  #reportMissing(): void {
    const missing = this.#missingSymbols();
    for (const sub of this.#subscribers) sub.missing(missing);
  }

  #succeeded(): void {
    this.#state.reachable();
    this.#state.held = false; // the stream is live, or the service answered: said at the next status update
    if (this.#lastReported === undefined) return;
    // A transient error was reported: it is over, even if no quote changed (market closed).
    this.#lastReported = undefined;
    for (const sub of this.#subscribers) sub.recovered();
  }

  #failure(error: PriceBoardError, source: 'stream' | 'poll', connectFailed: boolean): void {
    if (endsRetries(error)) {
      this.#fail(error);
      return;
    }
    if (isNetworkFailure(error) && (source === 'poll' || connectFailed)) this.#state.networkFailed();
    this.#updateStatus();
    // A dropped stream shows as 'reconnecting' (or 'offline'); an event per attempt would be noise.
    if (source === 'stream' && isNetworkFailure(error)) return;
    if (error.code === this.#lastReported) return;
    this.#lastReported = error.code;
    for (const sub of this.#subscribers) sub.error(error);
  }

  /** A final error: stop every retry, tell everyone. */
  #fail(error: PriceBoardError): void {
    if (this.#state.finalError || this.#closed) return;
    this.#state.finalError = error;
    this.#stop();
    this.#updateStatus();
    for (const sub of this.#subscribers) sub.error(error);
  }

  #onlineChanged(online: boolean): void {
    if (this.#stopped) return;
    if (online) {
      this.#state.reachable();
      this.#driver.online();
      this.#driver.fetch(this.#unsettled());
    }
    this.#updateStatus();
  }

  /** Tells every subscriber the status (and whether the quotes are still only held) when it changed. */
  #updateStatus(): void {
    this.#status = this.#state.value;
    for (const sub of this.#subscribers) sub.status(this.#status, this.#state.held);
  }
}
