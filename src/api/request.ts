/** One GET of a JSON resource with a timeout, classified into `PriceBoardError`s. */
import { PriceBoardError } from '../shared/errors';
import { errorFromResponse } from './http-error';
import { readBounded } from './read-bounded';
import { startTimer } from './timer';

/** The rejection value for an aborted signal (its reason, or a standard AbortError). */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** The `fetch` signature the data layer needs (injectable for tests and other runtimes). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** The global `fetch`, looked up per call so that it can be replaced, and called unbound-safe. */
export const globalFetch: FetchLike = (input, init) => globalThis.fetch(input, init);

/** Default per-attempt timeout (DESIGN.md §4). */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** What one request needs. */
export interface RequestContext {
  fetch: FetchLike;
  apiKey?: string;
  timeoutMs: number;
}

/** Whether `fetch` accepts `value` in a header: no character beyond Latin-1, no NUL, CR or LF. */
function isHeaderValue(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0 || c === 10 || c === 13 || c > 0xff) return false;
  }
  return true;
}

/**
 * Request headers: the key goes only here, never into the URL. A key no header can carry (e.g.
 * Persian letters pasted by mistake) is `unauthorized` at once: `fetch` would reject it with a
 * TypeError that looks like a network failure, retried for ever. The message never holds the key.
 */
export function requestHeaders(apiKey: string | undefined, accept: string): Record<string, string> {
  if (apiKey && !isHeaderValue(apiKey)) {
    throw new PriceBoardError('unauthorized', 'The API key has characters an HTTP header cannot carry');
  }
  return apiKey ? { Accept: accept, 'X-API-Key': apiKey } : { Accept: accept };
}

/**
 * The largest body read (characters; a year of 15-minute history points is about 2 MB). A
 * bigger answer is `bad_response`: the read stops (and the connection is cancelled) as soon as
 * it passes the cap, so a huge chunked body never sits in memory; parsing 20 MB of JSON alone is a second-long task, and its result hundreds of MB.
 */
export const MAX_BODY_CHARS = 8_000_000;

/** The body as text, or `bad_response` when it is larger than {@link MAX_BODY_CHARS}. */
async function boundedText(response: Response, what: string): Promise<string> {
  const text = await readBounded(response, MAX_BODY_CHARS);
  if (text === undefined)
    throw new PriceBoardError('bad_response', `${what}: the body is larger than ${MAX_BODY_CHARS} characters`, {
      status: response.status,
    });
  return text;
}

/**
 * How every request treats redirects: not followed. A followed redirect re-sends `X-API-Key` to
 * wherever the `Location` points (another origin included); the service never redirects, so an
 * answer that does is refused. (In a browser a manual redirect is an opaque response of status 0.)
 */
export const NO_REDIRECT: RequestRedirect = 'manual';

/** Throws `bad_response` when `response` is a redirect (see {@link NO_REDIRECT}). */
export function refuseRedirect(response: Response, what: string): void {
  if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
    throw new PriceBoardError('bad_response', `${what}: the service answered with a redirect, which is not followed`, {
      status: response.status,
    });
  }
}

/**
 * GETs `url` and parses its JSON body. Rejects with `timeout` after `timeoutMs` (headers and body
 * together), `network` when the fetch fails, the mapped HTTP error for a non-2xx status,
 * `bad_response` for a body that is not JSON, and the caller's abort reason when `signal` aborts.
 */
export async function getJson(url: URL, ctx: RequestContext, signal?: AbortSignal): Promise<unknown> {
  if (signal?.aborted) throw abortReason(signal);
  const what = `GET ${url.pathname}`;
  const controller = new AbortController();
  let timedOut = false;
  const cancelTimer = startTimer(() => {
    timedOut = true;
    controller.abort();
  }, ctx.timeoutMs);
  const onAbort = (): void => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });

  // Why the request ended, when it ended badly: our timeout, the caller, or the network.
  const failure = (cause: unknown): unknown => {
    if (timedOut) return new PriceBoardError('timeout', `${what}: timeout (${ctx.timeoutMs} ms)`, { cause });
    if (signal?.aborted) return abortReason(signal);
    if (cause instanceof PriceBoardError) return cause;
    return new PriceBoardError('network', `${what}: network error`, { cause });
  };

  try {
    let response: Response;
    let text: string;
    try {
      response = await ctx.fetch(url.href, {
        method: 'GET',
        headers: requestHeaders(ctx.apiKey, 'application/json'),
        signal: controller.signal,
        redirect: NO_REDIRECT,
      });
      refuseRedirect(response, what);
      if (!response.ok) throw await errorFromResponse(response, { what, apiKey: ctx.apiKey });
      text = await boundedText(response, what);
    } catch (cause) {
      throw failure(cause);
    }
    try {
      return JSON.parse(text);
    } catch (cause) {
      throw new PriceBoardError('bad_response', `${what}: body is not JSON`, {
        status: response.status,
        cause,
      });
    }
  } finally {
    cancelTimer();
    signal?.removeEventListener('abort', onAbort);
  }
}
