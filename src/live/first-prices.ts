/**
 * A hub's first `/v1/prices` request, sent before the hub's code (a lazy chunk) has loaded: one
 * attempt, request and validation. Its answer is shown at once when it comes before the hub;
 * the hub then takes it as the first attempt of its own first request (`PriceClient.prices`),
 * so the request is never sent twice and every failure is handled (retried, reported) by the hub.
 */
import { DEFAULT_TIMEOUT_MS, getJson, globalFetch } from '../api/request';
import { endpointUrl, symbolsQuery } from '../api/urls';
import { parsePricesBody } from '../api/validate';
import type { Connection, FirstPrices, HubOptions } from './hub-types';

export function requestFirstPrices(options: HubOptions, connection: Connection, symbols: string[]): FirstPrices {
  const controller = new AbortController();
  const abort = (): void => controller.abort();
  const ctx = {
    fetch: options.fetch ?? globalFetch,
    apiKey: connection.apiKey,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  };
  const answer = getJson(
    endpointUrl(connection.baseUrl, '/v1/prices', symbolsQuery(symbols)),
    ctx,
    controller.signal,
  ).then(parsePricesBody);
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
