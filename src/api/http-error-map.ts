/**
 * Turning a failed HTTP response into a `PriceBoardError` (shared by the client and the stream).
 * Only failures need it: `http-error.ts` loads it when a response fails, so it is a chunk of its
 * own, out of the initial module and of the live transport.
 */
import { PriceBoardError, type ErrorCode } from '../shared/errors';
import { parseRetryAfter } from './retry-after';
import { readBounded } from './read-bounded';

/** The most of an error body read: the service's are a few hundred characters. */
const MAX_ERROR_BODY_CHARS = 64 * 1024;
import { isObject } from './validate';

interface ServiceError {
  code?: string;
  message?: string;
  symbols?: string[];
}

/** Reads the service's error body, whichever of the tolerated shapes it has (DESIGN.md §4). */
export function readServiceError(text: string): ServiceError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return {};
  }
  if (!isObject(body)) return {};
  const inner = isObject(body.error) ? body.error : body;
  const code = typeof inner.code === 'string' ? inner.code : typeof body.error === 'string' ? body.error : undefined;
  const message =
    typeof inner.message === 'string' ? inner.message : typeof body.message === 'string' ? body.message : undefined;
  const list = Array.isArray(inner.symbols) ? inner.symbols : Array.isArray(body.symbols) ? body.symbols : undefined;
  const symbols = list?.filter((s): s is string => typeof s === 'string');
  return { code, message, symbols };
}

/**
 * Removes the key from text that came from elsewhere, then keeps it short: it may reach a log.
 * In that order, so that a cut can never leave a fragment of the key that no longer matches it.
 */
function scrub(text: string, apiKey: string | undefined): string {
  const clean = apiKey ? text.split(apiKey).join('[key]') : text;
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}

/**
 * The error for a non-2xx response: code by status, except a 404 whose body says
 * `unknown_symbol` (then `data.symbols` lists the ids when the body does). `Retry-After` becomes
 * `retryAfterMs`; the service's own code goes to `data.serviceCode` (e.g. 403 `plan_limit`).
 */
export async function errorFromResponse(
  response: Response,
  context: { what: string; apiKey?: string; now?: number },
): Promise<PriceBoardError> {
  let text: string | undefined;
  try {
    // An error body is a few hundred bytes; a bigger one is not read on (nor kept).
    text = await readBounded(response, MAX_ERROR_BODY_CHARS);
  } catch {
    // The status alone is enough to classify the failure.
  }
  const service = readServiceError(text ?? '');
  const status = response.status;
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), context.now);
  const detail = [service.code, service.message].filter(Boolean).join(': ');
  const message = scrub(`${context.what} failed with HTTP ${status}${detail ? ` (${detail})` : ''}`, context.apiKey);
  if (status === 404 && service.code === 'unknown_symbol') {
    return new PriceBoardError('unknown_symbol', message, {
      status,
      data: { symbols: service.symbols ?? [] },
    });
  }
  return new PriceBoardError(codeForStatus(status), message, {
    status,
    retryAfterMs,
    data: service.code ? { serviceCode: service.code } : undefined,
  });
}

/** The error code for an HTTP status (DESIGN.md section 4). */
function codeForStatus(status: number): ErrorCode {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status === 400 || status === 422) return 'bad_request';
  if (status >= 500) return 'server';
  return 'bad_response';
}
