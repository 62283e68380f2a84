// Helpers of the relay tests: a sandbox as the upstream with a relay in front, plain node:http
// requests (so a test can pick its source address, as distinct visitors), and an SSE reader.
import { request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { readConfig } from '../../relay/config';
import type { Quote } from '../../relay/from-src';
import type { RequestEntry } from '../../sandbox/stats';
import { startRelay, type Relay, type RelayOptions } from '../../relay/server';
import { control, SseRecord, start, until, type StartedSandbox } from '../sandbox/helpers';

export { control, until } from '../sandbox/helpers';

export interface Pair {
  sandbox: StartedSandbox;
  relay: Relay;
  /** Every log line the relay wrote. */
  logs: string[];
  close(): Promise<void>;
}

/**
 * A frozen sandbox (no market timer) and a relay on it, configured as by environment variables;
 * `beforeRelay` prepares the sandbox (e.g. faults) before the relay first calls it.
 */
export async function startPair(
  env: Record<string, string> = {},
  options: RelayOptions = {},
  beforeRelay?: (sandbox: StartedSandbox) => Promise<unknown>,
): Promise<Pair> {
  const sandbox = await start();
  await beforeRelay?.(sandbox);
  return relayOn(sandbox, sandbox.url, env, options);
}

/**
 * A relay on `upstreamUrl` (the sandbox, or `between` in front of it), configured as by
 * environment variables, its log lines kept; closing it closes `between` and the sandbox after it.
 */
export async function relayOn(
  sandbox: StartedSandbox,
  upstreamUrl: string,
  env: Record<string, string>,
  options: RelayOptions,
  between?: { close(): Promise<void> },
): Promise<Pair> {
  const logs: string[] = [];
  const config = readConfig({ UPSTREAM_URL: upstreamUrl, UPSTREAM_KEY: 'enterprise-key', PORT: '0', ...env });
  const relay = await startRelay({ ...config, upstreamUrl }, { logSink: (line) => logs.push(line), ...options });
  return {
    sandbox,
    relay,
    logs,
    async close() {
      await relay.close();
      await between?.close();
      await sandbox.close();
    },
  };
}

/** Runs `task` for 0..n-1 (visitors, bots), `width` at a time. */
export async function inWaves<T>(n: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i += width)
    out.push(...(await Promise.all(Array.from({ length: Math.min(width, n - i) }, (_, j) => task(i + j)))));
  return out;
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Visit {
  /** The visitor's address: any of 127.0.0.0/8 on this machine. */
  from?: string;
  headers?: Record<string, string>;
  method?: string;
}

/** A GET (by default) to the relay from `from`, read to the end. */
export function get(base: string, path: string, visit: Visit = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      base + path,
      { method: visit.method ?? 'GET', headers: visit.headers, localAddress: visit.from, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A visitor's stream over node:http: every event, comment and `retry:` recorded; `raw` keeps the text. */
export class Stream extends SseRecord {
  status = 0;
  private res: IncomingMessage | undefined;
  private readonly req;

  constructor(base: string, symbols: string, visit: Visit & { lastEventId?: string } = {}) {
    super(10_000);
    const headers: Record<string, string> = { Accept: 'text/event-stream', ...visit.headers };
    if (visit.lastEventId) headers['Last-Event-ID'] = visit.lastEventId;
    this.req = request(
      `${base}/v1/stream?symbols=${symbols}`,
      { headers, localAddress: visit.from, agent: false },
      (res) => {
        this.res = res;
        this.status = res.statusCode ?? 0;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => this.take(chunk));
        res.on('close', () => (this.ended = true));
      },
    );
    this.req.on('error', () => (this.ended = true));
    this.req.end();
  }

  /** The text received so far. */
  get raw(): string {
    return this.text;
  }

  /** Resolves when the answer's headers arrived. */
  async opened(timeoutMs = 10_000): Promise<number> {
    return until(() => this.status || (this.ended && -1), timeoutMs);
  }

  /** Stops reading without closing: the client is too slow. */
  stopReading(): void {
    this.res?.pause();
  }

  close(): void {
    this.req.destroy();
  }
}

/** The /v1 requests the sandbox answered, as it counts them. */
export async function upstreamRequests(sandbox: StartedSandbox): Promise<RequestEntry[]> {
  const res = await fetch(`${sandbox.url}/__sandbox/stats`);
  return ((await res.json()) as { requests: RequestEntry[] }).requests;
}

/** Distinct loopback addresses for `n` visitors: 127.0.1.1, 127.0.1.2, ... */
export function visitorAddress(i: number): string {
  return `127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}`;
}

/** `ms` (epoch) as an `updated_at`. */
export const at = (ms: number): string => new Date(ms).toISOString();

/** A quote of `symbol` updated at 08:`minute` UTC on a fixed day: later minutes are newer. */
export function quote(symbol: string, minute: number): Quote {
  return {
    symbol,
    title: symbol,
    category: 'currency',
    unit: 'unit',
    price: String(1000 + minute),
    price_toman: String(100 + minute),
    change_pct: '0.00',
    high: '1',
    low: '1',
    updated_at: new Date(Date.UTC(2026, 10, 23, 8, minute)).toISOString(),
  };
}

/**
 * Pushes `quote`, changed now, through the sandbox at `sandboxUrl`'s stream as the quotes event
 * `id`, as an upstream change comes: the relay holds it next.
 */
export async function pushQuote(sandboxUrl: string, id: string, quote: Quote): Promise<void> {
  const now = new Date().toISOString();
  await control(sandboxUrl, 'push', {
    event: 'quotes',
    id,
    data: JSON.stringify({ at: now, quotes: [{ ...quote, updated_at: now }] }),
  });
}
