// A controllable upstream for relay tests: a real node:http server that speaks enough of the
// service (symbols, history, an idle stream) and counts every request, and whose answers a test
// can change (bodies holding the key, error texts, 429s).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface UpstreamRequest {
  path: string;
  /** The `days` query of a history request. */
  days?: string;
  key: string | undefined;
}

export interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

export interface UpstreamDouble {
  url: string;
  requests: UpstreamRequest[];
  /** History requests, as `symbol:days`. */
  histories(): string[];
  /** Replaces the history answer; undefined: daily points of the span. */
  history: ((symbol: string, days: number) => Answer | undefined) | undefined;
  /** Replaces the symbols answer. */
  symbols: (() => Answer | undefined) | undefined;
  close(): Promise<void>;
}

/** Daily points over `days` up to `now`: `{"data":{"points":[{"t","price"}]}}`, prices as strings. */
export function historyBody(days: number, now: number, price = '1234567.5'): string {
  const points = Array.from({ length: days }, (_, i) => ({
    t: Math.floor(now / 1000) - (days - 1 - i) * 86_400,
    price,
  }));
  return JSON.stringify({ data: { points } });
}

export async function startUpstream(options: { symbols: string[]; now?: () => number }): Promise<UpstreamDouble> {
  const now = options.now ?? Date.now;
  const streams = new Set<ServerResponse>();
  const double: UpstreamDouble = {
    url: '',
    requests: [],
    histories: () =>
      double.requests
        .filter((r) => r.path.startsWith('/v1/history/'))
        .map((r) => `${r.path.slice('/v1/history/'.length)}:${r.days}`),
    history: undefined,
    symbols: undefined,
    close: async () => {
      for (const res of streams) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const send = (res: ServerResponse, answer: Answer): void => {
    res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers });
    res.end(answer.body);
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://upstream.invalid');
    const key = req.headers['x-api-key'] as string | undefined;
    double.requests.push({ path: url.pathname, days: url.searchParams.get('days') ?? undefined, key });
    if (url.pathname === '/v1/symbols') {
      const list = options.symbols.map((symbol) => ({ symbol, title: symbol, category: 'currency', unit: 'IRR' }));
      return send(res, double.symbols?.() ?? { status: 200, body: JSON.stringify({ data: { symbols: list } }) });
    }
    const history = /^\/v1\/history\/([^/]+)$/.exec(url.pathname);
    if (history) {
      const symbol = decodeURIComponent(history[1]!);
      const days = Number(url.searchParams.get('days'));
      if (!options.symbols.includes(symbol))
        return send(res, {
          status: 404,
          body: JSON.stringify({ error: { code: 'unknown_symbol', message: `no ${symbol}` } }),
        });
      return send(res, double.history?.(symbol, days) ?? { status: 200, body: historyBody(days, now()) });
    }
    if (url.pathname === '/v1/stream') {
      // An idle stream: an empty snapshot, then nothing (the history tests need no quotes).
      streams.add(res);
      res.on('close', () => streams.delete(res));
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write(`id: 1\nevent: quotes\ndata: ${JSON.stringify({ at: new Date(now()).toISOString(), quotes: [] })}\n\n`);
      return;
    }
    send(res, { status: 404, body: JSON.stringify({ error: { code: 'not_found', message: 'no such path' } }) });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  double.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return double;
}
