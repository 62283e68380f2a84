/**
 * Writing the service contract over node:http: JSON and error answers, CORS preflights, the `symbols`
 * query, SSE framing. The relay's own; the sandbox (a test double) reuses them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Answers a CORS preflight. */
export function sendPreflight(res: ServerResponse, methods: string): void {
  res.writeHead(204, {
    'Access-Control-Allow-Methods': methods,
    'Access-Control-Allow-Headers': 'X-API-Key, Last-Event-ID, Content-Type',
    'Access-Control-Max-Age': '600',
    'Content-Length': '0',
  });
  res.end();
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendRaw(res, status, JSON.stringify(body), headers);
}

export function sendRaw(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': String(Buffer.byteLength(body)),
    ...headers,
  });
  res.end(body);
}

/** `{"error":{"code","message",...extra}}` */
export function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { error: { code, message, ...extra } }, headers);
}

/**
 * The request target as a URL, or undefined when it is malformed: not an absolute path (`*`, a
 * full URL, `//host`), an empty segment (`///x`, `/a//b`), a dot segment, plain or
 * percent-encoded (`/%2e%2e/`, which a URL parser would quietly resolve), or a backslash (a URL
 * parser reads it as a slash). Such a target names nothing the relay serves. A segment that does
 * not decode is left to the routes (the service answers it 404).
 */
export function requestTarget(target: string | undefined): URL | undefined {
  // The absolute form (`http://host/path`), which a server must accept, names its path.
  const raw = target?.replace(/^https?:\/\/[^/?#]*(?=[/?#]|$)/i, '');
  if (raw === undefined || !raw.startsWith('/') || raw.includes('\\')) return undefined;
  const segments = raw.split(/[?#]/, 1)[0]!.split('/').slice(1);
  const dots = (segment: string): boolean => /^(\.|%2e){1,2}$/i.test(segment);
  // The last segment may be empty (`/`, `/dir/`); no other may.
  if (segments.some((s, i) => (s === '' && i < segments.length - 1) || dots(s))) return undefined;
  try {
    return new URL(raw, 'http://relay.invalid');
  } catch {
    return undefined;
  }
}

/** `text` as one header value for the developer: printable ASCII, at most 200 characters. */
export function detailHeader(text: string): string {
  return text.replace(/[^\x20-\x7e]+/g, ' ').slice(0, 200);
}

/** A header that may only appear once, as a string. */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The `symbols` query: lower-case ids separated by single commas, nothing else (400), each one
 * `known` (else 404 `unknown_symbol` listing them); duplicates dropped. Undefined when an error was sent.
 */
export function requestedSymbols(res: ServerResponse, url: URL, known: (id: string) => boolean): string[] | undefined {
  const raw = url.searchParams.get('symbols');
  if (!raw) return void sendError(res, 400, 'bad_request', 'the symbols parameter is required, e.g. ?symbols=usd,eur');
  const ids = raw.split(',');
  const bad = ids.filter((id) => !/^[a-z0-9_]+$/.test(id));
  if (bad.length > 0) {
    const message = `symbols must be lower-case ids separated by commas, without spaces: ${JSON.stringify(bad.slice(0, 20))}`;
    return void sendError(res, 400, 'bad_request', message);
  }
  const unknown = ids.filter((id) => !known(id));
  if (unknown.length > 0) {
    const list = [...new Set(unknown)].slice(0, 50);
    return void sendError(res, 404, 'unknown_symbol', `unknown symbol(s): ${list.join(', ')}`, { symbols: list });
  }
  return [...new Set(ids)];
}

/**
 * Starts an SSE answer: headers that keep proxies from buffering it, then the `retry:` block.
 * `closeDelimited`: the body ends when the connection does, without chunked framing, so each
 * event is one plain socket write (what a server writing to thousands of streams wants).
 */
export function openEventStream(res: ServerResponse, retryMs: number, closeDelimited = false): void {
  if (closeDelimited) res.useChunkedEncodingByDefault = false;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: closeDelimited ? 'close' : 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.socket?.setNoDelay(true);
  res.write(`retry: ${retryMs}\n\n`);
}

/** One SSE event; a multi-line `data` becomes one `data:` line per line. */
export function sseFrame(event: string, id: number | string, data: string): string {
  const lines = data
    .split(/\r\n|\r|\n/)
    .map((line) => `data: ${line}\n`)
    .join('');
  return `id: ${id}\nevent: ${event}\n${lines}\n`;
}

/** The heartbeat comment. */
export const SSE_PING = ': ping\n\n';
