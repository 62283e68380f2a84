/**
 * One Server-Sent Events connection over `fetch` streaming (not `EventSource`, which cannot send
 * the `X-API-Key` header), and its framing ({@link sseParser}); reconnecting is `stream.ts`'s job.
 */
import { PriceBoardError } from '../shared/errors';
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

/**
 * Framing: event-stream text as events (WHATWG HTML, "Server-sent events", parsing): lines end
 * in CRLF, LF or CR (a CR that ends a chunk waits for the next one's LF); a blank line dispatches the event
 * when it has a data line; comments and unknown fields are ignored; `id` is the event's own
 * (the stream keeps the last one), `retry` only when all digits. The decoder drops a BOM.
 *
 * Feed the parser the decoded text as it comes. It returns false once an unterminated line
 * and the data of the event being read add up to more than `maxChars`: a broken stream.
 */
export function sseParser(hooks: Pick<SseOptions, 'onEvent' | 'onRetry'>, maxChars: number): (text: string) => boolean {
  // An unterminated line, in pieces: joined only when a line ends (a long line is not copied again per chunk).
  let pending: string[] = [];
  let pendingChars = 0;
  let data: string[] | undefined;
  let dataChars = 0;
  let name = '';
  let id: string | undefined;
  const line = (text: string): void => {
    if (text === '') {
      if (data) hooks.onEvent(name || 'message', data.join('\n'), id);
      data = id = undefined;
      name = '';
      dataChars = 0;
      return;
    }
    const colon = text.indexOf(':');
    if (colon === 0) return; // a comment (heartbeats)
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? '' : text.slice(colon + (text[colon + 1] === ' ' ? 2 : 1));
    if (field === 'data') {
      (data ??= []).push(value);
      dataChars += value.length;
    } else if (field === 'event') name = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) hooks.onRetry?.(Number(value));
  };
  return (chunk) => {
    if (/[\r\n]/.test(chunk)) {
      const text = pending.join('') + chunk;
      // A CR at the end may be the first half of a CRLF.
      const end = text.endsWith('\r') ? text.length - 1 : text.length;
      const lines = text.slice(0, end).split(/\r\n|\r|\n/);
      const rest = lines.pop()! + text.slice(end);
      for (const each of lines) line(each);
      pending = [rest];
      pendingChars = rest.length;
    } else {
      pending.push(chunk);
      pendingChars += chunk.length;
    }
    return pendingChars + dataChars <= maxChars;
  };
}
