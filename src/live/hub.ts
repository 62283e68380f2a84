/**
 * What the board uses: `subscribe(options, symbols, listener)`. Boards with the same service,
 * key and stream settings share one hub: one stream connection and one `/v1/prices` request per
 * tick for the union of their symbols (DESIGN.md §6, sharing).
 */
import { PriceHub, type HubConfig } from './price-hub';
import type { HubListener, HubOptions, Subscription } from './hub-types';
import { navigatorOnline } from './online';
import { trimBaseUrl } from '../api/urls';
import { STREAM_MODES } from '../shared/attributes';

export type { HubListener, HubOptions, QuotesMeta, Subscription } from './hub-types';

const hubs = new Map<string, PriceHub>();

/** Ids as the service knows them: trimmed, lower case, no empties, no duplicates, order kept. */
function normalizeSymbols(symbols: readonly string[]): string[] {
  return [...new Set(symbols.map((s) => s.trim().toLowerCase()).filter((s) => s !== ''))];
}

function resolve(options: HubOptions): HubConfig {
  const baseUrl = trimBaseUrl(options.baseUrl);
  return {
    baseUrl,
    apiKey: options.apiKey || undefined,
    mode: STREAM_MODES.includes(options.stream) ? options.stream : 'auto',
    streamUrl: options.streamUrl?.trim() || `${baseUrl}/v1/stream`,
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
 * Subscriptions made in the same tick share one `/v1/prices` request and one stream.
 */
export function subscribe(options: HubOptions, symbols: string[], listener: HubListener): Subscription {
  const config = resolve(options);
  const key = JSON.stringify([config.baseUrl, config.apiKey ?? '', config.mode, config.streamUrl]);
  let hub = hubs.get(key);
  if (!hub || hub.closed) {
    const created: PriceHub = new PriceHub(config, () => {
      if (hubs.get(key) === created) hubs.delete(key);
    });
    hubs.set(key, created);
    hub = created;
  }
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

/** Number of hubs alive (tests: 0 once every subscription is closed and a microtask has passed). */
export function hubCount(): number {
  return hubs.size;
}
