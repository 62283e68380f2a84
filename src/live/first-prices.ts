/**
 * A hub's first `/v1/prices` request, sent before the hub's code (a lazy chunk) has loaded: one
 * attempt, request and validation. Its answer is shown at once when it comes before the hub;
 * the hub then takes it as the first attempt of its own first request (`PriceClient.prices`),
 * so the request is never sent twice and every failure is handled (retried, reported) by the hub.
 */
import type { PricesAttempt } from '../api/client';
import { DEFAULT_TIMEOUT_MS, getJson, globalFetch } from '../api/request';
import { endpointUrl, symbolsQuery } from '../api/urls';
import { parsePricesBody } from '../api/validate';
import type { PricesData } from '../shared/types';
import type { Connection } from './connection';
import type { HubOptions } from './hub-types';

export interface FirstPrices {
  /** The ids asked for. */
  symbols: string[];
  /** The validated answer. */
  answer: Promise<PricesData>;
  /** The answer as the hub's first attempt: aborting `signal` aborts the request. */
  attempt: PricesAttempt;
  /** Aborts the request (nobody is left to take its answer). */
  abort(): void;
}

export function requestFirstPrices(options: HubOptions, connection: Connection, symbols: string[]): FirstPrices {
  const controller = new AbortController();
  const abort = (): void => controller.abort();
  const ctx = { fetch: options.fetch ?? globalFetch, apiKey: connection.apiKey, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS };
  const answer = getJson(endpointUrl(connection.baseUrl, '/v1/prices', symbolsQuery(symbols)), ctx, controller.signal).then(parsePricesBody);
  // A failure is the hub's to report, once it has taken the attempt.
  answer.catch(() => {});
  return {
    symbols,
    answer,
    abort,
    attempt: (signal) => {
      if (signal.aborted) abort();
      else signal.addEventListener('abort', abort, { once: true });
      return answer;
    },
  };
}
