// The sandbox price service: `createSandbox` gives a request handler (usable as connect
// middleware), `startSandbox` puts it on its own HTTP server. See sandbox/README.md for the contract.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleApi } from './api';
import type { SandboxContext } from './context';
import { handleControl } from './control';
import { Faults } from './faults';
import { sendError, sendPreflight, setCors } from './http';
import { RateLimiter } from './limits';
import { Market } from './market';
import { Stats } from './stats';
import { StreamHub } from './stream';
import type { MarketMode, SandboxOptions } from './types';

export type { MarketMode, Quote, SandboxOptions } from './types';
export type { FaultRule } from './faults';
export type { RequestEntry, SandboxStats } from './stats';

export interface Sandbox {
  /** Answers /v1/... and /__sandbox/...; other paths go to `next` (or get a 404). */
  handle(req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void;
  /** Stops the source timer and ends open streams and held answers. */
  close(): void;
  /** Same as POST /__sandbox/reset. */
  reset(): void;
  readonly market: Market;
  readonly faults: Faults;
  readonly streams: StreamHub;
  readonly stats: Stats;
  readonly limiter: RateLimiter;
}

export interface StartedSandbox {
  url: string;
  port: number;
  sandbox: Sandbox;
  close(): Promise<void>;
}

/** Per key: far above what one page or the benches open (boards share one stream per key). */
const DEFAULT_MAX_STREAMS_PER_KEY = 1_000;

const MODES: readonly MarketMode[] = ['auto', 'open', 'closed'];

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const mode = options.market || 'auto';
  if (!MODES.includes(mode)) throw new Error(`sandbox market must be one of ${MODES.join(', ')}, not "${mode}"`);
  const now = options.now ?? Date.now;
  const seed = options.seed ?? 1404;
  const market = new Market({ seed, mode, now });
  const streams = new StreamHub({
    heartbeatMs: options.heartbeatMs ?? 15_000,
    retryMs: options.retryMs ?? 3_000,
    bufferSize: options.bufferSize ?? 1_000,
    now,
    quote: (symbol) => market.quote(symbol),
  });
  market.onChange((quote) => streams.publish(quote));
  const ctx: SandboxContext = {
    market,
    streams,
    faults: new Faults(),
    limiter: new RateLimiter(now, options.maxKeys),
    stats: new Stats(),
    seed,
    maxStreamsPerKey: options.maxStreamsPerKey ?? DEFAULT_MAX_STREAMS_PER_KEY,
    now,
    hanging: new Set(),
    timers: new Set(),
    reset() {
      ctx.faults.rules = [];
      ctx.limiter.reset();
      ctx.stats.reset();
      market.reset();
      streams.reset();
    },
  };
  const tickMs = options.tickMs ?? 5_000;
  const ticker = tickMs > 0 ? setInterval(() => market.tick(), tickMs) : undefined;
  ticker?.unref();

  return {
    market,
    streams,
    faults: ctx.faults,
    stats: ctx.stats,
    limiter: ctx.limiter,
    reset: ctx.reset,
    handle(req, res, next) {
      const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
      const api = url.pathname === '/v1' || url.pathname.startsWith('/v1/');
      const control = url.pathname === '/__sandbox' || url.pathname.startsWith('/__sandbox/');
      if (!api && !control && next) return next();
      if (control) {
        return void handleControl(ctx, req, res, url).catch((error: unknown) => fail(res, error));
      }
      setCors(req, res);
      if (req.method === 'OPTIONS') {
        ctx.stats.preflights += 1;
        sendPreflight(res, 'GET, OPTIONS');
      } else if (api) {
        try {
          handleApi(ctx, req, res, url);
        } catch (error) {
          fail(res, error);
        }
      } else {
        sendError(res, 404, 'not_found', `no such path: ${url.pathname}`);
      }
    },
    close() {
      if (ticker) clearInterval(ticker);
      for (const timer of ctx.timers) clearTimeout(timer);
      ctx.timers.clear();
      for (const res of ctx.hanging) res.destroy();
      streams.closeAll();
    },
  };
}

function fail(res: ServerResponse, error: unknown): void {
  console.error('[sandbox]', error);
  sendError(res, 500, 'internal_error', 'the sandbox failed on this request');
}

/** Starts the sandbox on its own server (port 0 = any free port). */
export async function startSandbox(
  options: SandboxOptions & { port?: number; host?: string } = {},
): Promise<StartedSandbox> {
  const { port = 0, host = '127.0.0.1', ...rest } = options;
  const sandbox = createSandbox(rest);
  const server = createServer((req, res) => sandbox.handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actual}`,
    port: actual,
    sandbox,
    async close() {
      sandbox.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
