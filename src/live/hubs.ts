/**
 * The hubs, by connection (a lazy chunk, loaded by `hub.ts` beside the first prices request).
 * Boards with the same service, key and stream settings share one hub: one stream connection and
 * one `/v1/prices` request per tick for the union of their symbols (DESIGN.md §6, sharing).
 */
import { PriceHub, type HubConfig } from './price-hub';
import type { EarlyGroup, HubListener, HubOptions, Subscription } from './hub-types';
import { navigatorOnline } from './online';
import { connectionOf, normalizeSymbols } from './connection';
import type { FirstAttempt } from './quote-fetcher';
import type { Quote } from '../shared/types';
import { useErrorMessages } from '../shared/errors';
import { ERROR_MESSAGES } from '../shared/error-messages';

// Every error a widget shows or fires comes from this layer: its Persian messages come with it.
useErrorMessages(ERROR_MESSAGES);

const hubs = new Map<string, PriceHub>();

function resolve(options: HubOptions): HubConfig & { key: string } {
  return {
    ...connectionOf(options),
    fetch: options.fetch,
    visibility: options.visibility,
    online: options.online ?? navigatorOnline(),
    timeoutMs: options.timeoutMs,
    retry: options.retry,
    watchdogMs: options.watchdogMs,
    sseRetryMs: options.sseRetryMs,
    fetchRetry: options.fetchRetry,
  };
}

/**
 * Subscribes `listener` to quotes of `symbols`. Right after (in a microtask) it gets the status,
 * the quotes already known and the symbols known to be missing; then every applied change.
 * Subscriptions made in the same tick share one `/v1/prices` request and one stream. `first`: a
 * prices request already sent for them, taken by the hub this creates (see `first-prices.ts`).
 */
export function subscribe(
  options: HubOptions,
  symbols: string[],
  listener: HubListener,
  first?: FirstAttempt,
): Subscription {
  const config = resolve(options);
  const { key } = config;
  let hub = hubs.get(key);
  if (!hub || hub.closed) {
    const created: PriceHub = new PriceHub(
      config,
      () => {
        if (hubs.get(key) === created) hubs.delete(key);
      },
      first,
    );
    hubs.set(key, created);
    hub = created;
  } else first?.abort(); // not expected: a first request is sent only while no hub exists
  const owner = hub;
  const sub = owner.add(normalizeSymbols(symbols), listener, options.pollInterval);
  return {
    setSymbols: (next) => owner.update(sub, normalizeSymbols(next)),
    refresh: () => (sub.closed ? Promise.resolve() : owner.refresh()),
    close: () => owner.remove(sub),
  };
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

/** Number of hubs alive. */
export function hubCount(): number {
  return hubs.size;
}

/** `listener`, except that quotes in `shown` (delivered already) are not delivered again. */
function withoutShown(listener: HubListener, shown: Set<Quote>): HubListener {
  return {
    quotes(quotes, meta) {
      const fresh = shown.size > 0 ? quotes.filter((q) => !shown.delete(q)) : quotes;
      if (fresh.length > 0) listener.quotes(fresh, meta);
    },
    status: (status) => listener.status(status),
    error: (error) => listener.error(error),
    missing: (symbols) => listener.missing(symbols),
    recovered: () => listener.recovered?.(),
  };
}

/**
 * Takes the subscriptions made before this chunk loaded (`hub.ts`): each goes to its hub, its
 * group's first request with it (the hub takes that request over), without the quotes already
 * shown from that request's answer.
 */
export function adopt(groups: readonly EarlyGroup[]): void {
  for (const group of groups) {
    let first = group.first;
    for (const member of group.members) {
      member.inner = subscribe(member.options, member.symbols, withoutShown(member.listener, member.shown), first);
      first = undefined;
    }
  }
  // Batches already sent go on at once (their hubs take the first answers); a batch still being
  // gathered (a page still running our scripts, see `soon`) stays queued in its hub.
  if (groups.every((group) => !group.queued)) flushSubscriptions();
}
