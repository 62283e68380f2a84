/**
 * The relay's node:http server: request timeouts that node checks often enough to keep, a failed
 * handler answered 500, requests node cannot read answered in the service's shape (and counted
 * against their address), the connection cap, and a graceful close.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { RelayConfig } from './config';
import { sendErrorPage, wantsPage } from './error-page';
import { sendError } from './http';
import type { Logger } from './log';
import type { Metrics } from './metrics';
import { socketAddress, type FloodLog, type RequestLimiter } from './protect';

/** Requests node refuses for being late or too big keep its statuses (they are no path trick). */
const CLIENT_ERROR_STATUS: Record<string, [number, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'timeout'],
  HPE_HEADER_OVERFLOW: [431, 'bad_request'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'bad_request'],
};

/**
 * Whether a request node could not read is known to be for the API (`/v1/`): the bytes it failed on
 * begin with its request line, naming a `/v1/` path. Only then is the refusal in the service's JSON
 * shape; otherwise (a fragment's path, or a request line not seen: a long one arrives in pieces)
 * it has no body.
 */
function readsApi(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): boolean {
  const start = error.rawPacket?.subarray(0, 64).toString('latin1') ?? '';
  return /^[A-Z]+ (https?:\/\/[^/?# ]*)?\/v1([/? ]|$)/i.test(start);
}

export interface ListenerOptions {
  config: RelayConfig;
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  limiter: RequestLimiter;
  /** One line a minute at most about malformed requests. */
  malformed: FloodLog;
  metrics: Metrics;
  log: Logger;
  /** Receiving a request's headers and body. Default 10 s. */
  requestTimeoutMs?: number;
}

export interface Listener {
  url: string;
  port: number;
  /**
   * Accepts nothing more, runs `drain` (streams told to go), closes idle connections, and gives
   * requests in flight a moment to finish before whatever is left goes.
   */
  close(drain: () => void): Promise<void>;
}

/** Listens on the configured host and port. */
export async function listen(options: ListenerOptions): Promise<Listener> {
  const { config, limiter, malformed, metrics, log } = options;
  const requestTimeout = options.requestTimeoutMs ?? 10_000;
  // Node checks request timeouts on this interval (30 s by default): check often enough to keep them.
  const server = createServer(
    {
      requestTimeout,
      headersTimeout: requestTimeout,
      connectionsCheckingInterval: Math.min(1_000, requestTimeout / 2),
    },
    (req, res) => {
      metrics.inc('relay_requests_total', 'Downstream requests.');
      options.handle(req, res).catch((error: unknown) => {
        log('request_failed', { path: (req.url ?? '').slice(0, 200), error });
        if (wantsPage(req, req.url?.split('?', 1)[0])) sendErrorPage(res, 500, 'internal_error');
        else sendError(res, 500, 'internal_error', 'the relay failed on this request');
      });
    },
  );
  // A request node cannot parse (a bad request line, bad headers): a 400 counted against its
  // address like a malformed target, logged as one; node's own statuses for a late or huge request.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const special = CLIENT_ERROR_STATUS[error.code ?? ''];
    const address = special ? undefined : socketAddress(socket.remoteAddress, config.trustProxy);
    if (!special) malformed.note({ example: error.code });
    void (address ? limiter.take(address) : Promise.resolve(0)).then((wait) => {
      const [status, code] = special ?? (wait > 0 ? [429, 'rate_limited'] : [400, 'bad_request']);
      const message = 'the request could not be read';
      const cors = config.allowedOrigins ? '' : 'Access-Control-Allow-Origin: *\r\n';
      const retry = wait > 0 ? `Retry-After: ${Math.ceil(wait / 1000)}\r\n` : '';
      const head = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${cors}${retry}Connection: close\r\n`;
      if (!readsApi(error)) {
        // Perhaps a fragment (a huge query: 431), which a site's server would put in its page as it
        // comes: no body, as every fragment refusal (`sendFragmentError`).
        const detail = `X-Price-Board-Error: ${code}: ${message}\r\n`;
        return void socket.end(`${head}Content-Type: text/html; charset=utf-8\r\nContent-Length: 0\r\n${detail}\r\n`);
      }
      const body = JSON.stringify({ error: { code, message } });
      socket.end(
        `${head}Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    });
  });
  server.maxConnections = config.maxConnections;
  server.keepAliveTimeout = 5_000;
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('drop', () =>
    metrics.inc('relay_refused_total', 'Downstream requests refused, by reason.', { reason: 'connections' }),
  );
  metrics.gauge('relay_connections', 'Open downstream connections.', () => sockets.size);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`,
    port,
    async close(drain) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      drain();
      server.closeIdleConnections();
      // Requests in flight get a moment to finish; then whatever is left goes.
      const force = setTimeout(() => server.closeAllConnections(), 2_000);
      await closed;
      clearTimeout(force);
    },
  };
}
