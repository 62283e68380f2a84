/**
 * The connection part of a subscriber's options, resolved: subscribers with the same
 * {@link Connection.key} share one hub (and, before the hub's code has loaded, one first request).
 */
import { trimBaseUrl } from '../api/urls';
import { STREAM_MODES } from '../shared/attributes';
import type { Connection, HubOptions } from './hub-types';

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
