/**
 * One Server-Sent Events connection over `fetch` streaming (not `EventSource`, which cannot send
 * the `X-API-Key` header). Framing is `sse-parser.ts`'s; reconnecting is `stream.ts`'s job.
 */
import { PriceBoardError } from '../shared/errors';
import { sseParser } from './sse-parser';
import { errorFromResponse } from '../api/http-error';
import { abortReason, globalFetch, NO_REDIRECT, refuseRedirect, requestHeaders, type FetchLike } from '../api/request';

/** Buffered, unterminated event data beyond this is a broken stream, not a big event. */
const MAX_BUFFER_CHARS = 4 * 1024 * 1024;

/** Options of {@link openSse}. */
export interface SseOptions {
  url: string;
  /** Sent only as the `X-API-Key` header. */
  apiKey?: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Sent as `Last-Event-ID` so the server can resume after it. */
  lastEventId?: string;
  fetch?: FetchLike;
  /** Aborting ends the connection; the promise then rejects with the abort reason and nothing is reported. */
  signal?: AbortSignal;
  /** The response is 2xx and an event stream: the connection is open. */
  onOpen?(): void;
  /** One event; `name` is `message` when the server gave none. */
  onEvent(name: string, data: string, id: string | undefined): void;
  /** The server's `retry:` in milliseconds. */
  onRetry?(ms: number): void;
  /** Any bytes arrived (heartbeat comments included): the connection is alive. */
  onActivity?(): void;
  /** The failure the promise rejects with (not called on abort). */
  onError?(error: PriceBoardError): void;
}

/**
 * Opens the stream and reads it to its end. Resolves when the server ends the stream; rejects with
 * a `PriceBoardError` when it cannot open (HTTP errors mapped as for the client; a 2xx that is not
 * `text/event-stream` is `bad_response` with `data.contentType`) or breaks.
 */
export function openSse(options: SseOptions): Promise<void> {
  return readStream(options).catch((cause: unknown) => {
    if (options.signal?.aborted) throw abortReason(options.signal);
    const error =
      cause instanceof PriceBoardError
        ? cause
        : new PriceBoardError('network', `GET ${pathOf(options.url)} failed: network error`, { cause });
    options.onError?.(error);
    throw error;
  });
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return 'stream';
  }
}

async function readStream(options: SseOptions): Promise<void> {
  const what = `GET ${pathOf(options.url)}`;
  const headers = { ...requestHeaders(options.apiKey, 'text/event-stream'), ...options.headers };
  if (options.lastEventId) headers['Last-Event-ID'] = options.lastEventId;
  const init: RequestInit = { method: 'GET', headers, signal: options.signal, redirect: NO_REDIRECT };
  const response = await (options.fetch ?? globalFetch)(options.url, init);
  refuseRedirect(response, what);
  if (!response.ok) throw await errorFromResponse(response, { what, apiKey: options.apiKey });
  const contentType = response.headers.get('content-type') ?? '';
  if (!/^\s*text\/event-stream/i.test(contentType) || !response.body) {
    await response.body?.cancel().catch(() => {});
    throw new PriceBoardError(
      'bad_response',
      `${what} answered ${contentType || 'without a content type'}, not an event stream`,
      {
        status: response.status,
        data: { contentType },
      },
    );
  }
  options.onOpen?.();

  const feed = sseParser(options, MAX_BUFFER_CHARS);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      options.onActivity?.();
      if (!feed(decoder.decode(value, { stream: true })))
        throw new PriceBoardError('bad_response', `${what} sent an event larger than ${MAX_BUFFER_CHARS} characters`);
    }
  } finally {
    // Leaving early (overflow, a throwing callback) must still close the connection.
    reader.cancel().catch(() => {});
  }
}
