/**
 * A connection: the service, the key and the stream settings a subscriber asks for. Subscribers
 * with the same {@link Connection.key} share one hub (`hub.ts`); the widgets' controller compares
 * the same key to know when to subscribe again.
 */
import type { BackoffOptions } from '../api/backoff';
import type { RetryOptions } from '../api/client';
import type { FetchLike } from '../api/request';
import { endpointUrl, symbolsQuery, trimBaseUrl } from '../api/urls';
import { STREAM_MODES, SYMBOL_ID, type StreamMode } from '../shared/attribute-table';
import type { OnlineSource } from './online';
import type { VisibilitySource } from './visibility';

/** What a subscriber asks for. Subscribers with equal (baseUrl, apiKey, stream, streamUrl) share one hub. */
export interface HubOptions {
  baseUrl: string;
  apiKey?: string;
  stream: StreamMode;
  /** Default `${baseUrl}/v1/stream`. */
  streamUrl?: string;
  /** Seconds between polls when polling; the hub polls at the fastest subscriber's pace, never under 5 s. */
  pollInterval: number;
  // Optional hooks, mainly for tests and non-browser runtimes. A shared hub keeps the values of
  // the subscriber that created it.
  /** Replaces the global `fetch`. */
  fetch?: FetchLike;
  /** Page visibility (polling pauses while hidden); default `document.visibilityState`. */
  visibility?: VisibilitySource;
  /** Online state; default `navigator.onLine` and its events. */
  online?: OnlineSource;
  /** Request timeout; default 10 s. */
  timeoutMs?: number;
  /** Client retries of network errors and 5xx. */
  retry?: RetryOptions;
  /** Stream silence taken as a dead connection; default 45 s. */
  watchdogMs?: number;
  /** `auto`: wait before trying SSE again after falling back to polling; default 5 min. */
  sseRetryMs?: number;
  /** Backoff of re-asking for quotes a failed fetch did not get; default `{ baseMs: 2000, maxMs: 60000 }`. */
  fetchRetry?: BackoffOptions;
}

/** The connection part of a subscriber's options, resolved (`connectionOf`). */
export interface Connection {
  baseUrl: string;
  apiKey: string | undefined;
  mode: StreamMode;
  streamUrl: string;
  /** Equal for subscribers that share a hub: (baseUrl, apiKey, mode, streamUrl). */
  key: string;
}

export function connectionOf(options: HubOptions): Connection {
  const baseUrl = trimBaseUrl(options.baseUrl);
  const apiKey = options.apiKey || undefined;
  const mode = STREAM_MODES.includes(options.stream) ? options.stream : 'auto';
  const streamUrl = options.streamUrl?.trim() || `${baseUrl}/v1/stream`;
  return { baseUrl, apiKey, mode, streamUrl, key: JSON.stringify([baseUrl, apiKey ?? '', mode, streamUrl]) };
}

/** Ids as the service knows them: trimmed, lower case, no empties, no duplicates, order kept. */
export function normalizeSymbols(symbols: readonly string[]): string[] {
  return [...new Set(symbols.map((s) => s.trim().toLowerCase()).filter((s) => s !== ''))];
}

/**
 * The address of a widget's first `/v1/prices` request for `symbols` (in their order) at
 * `baseUrl`: what a page's `<link rel="preload" as="fetch" crossorigin>` names so that the widget
 * takes the preloaded answer (the keyless relay snippet: README, demo; DESIGN.md §12). Ids the
 * service cannot know (not `SYMBOL_ID`) are never asked for.
 */
export function firstPricesUrl(baseUrl: string, symbols: readonly string[]): string {
  const ids = normalizeSymbols(symbols).filter((s) => SYMBOL_ID.test(s));
  return endpointUrl(baseUrl, '/v1/prices', symbolsQuery(ids)).href;
}
