/** Small helpers shared by the bench sections. */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

export function median(xs: number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The `p` quantile (0..1) of `xs`, linearly interpolated between the nearest ranks (NaN when empty). */
export function quantile(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const at = (s.length - 1) * p;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return s[lo]! + (s[hi]! - s[lo]!) * (at - lo);
}

/** Median and interquartile range of `xs`. */
export interface Spread {
  median: number;
  q1: number;
  q3: number;
}
export function spread(xs: number[]): Spread {
  return { median: median(xs), q1: quantile(xs, 0.25), q3: quantile(xs, 0.75) };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Polls `check` every `everyMs` until it returns a value other than undefined, or throws after `timeoutMs`. */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs: number,
  everyMs = 50,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

export function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export interface SandboxRequest {
  method: string;
  path: string;
  key?: string;
  origin?: string;
  at?: string | number;
  status?: number;
}
export interface SandboxStats {
  requests: SandboxRequest[];
  openStreams: number;
  streamsOpened: number;
}

/** Symbol ids from GET /v1/symbols in any of the accepted shapes (DESIGN.md §4). */
export function symbolIds(body: unknown): string[] {
  let x: unknown = body;
  if (x && typeof x === 'object' && !Array.isArray(x) && 'data' in x) x = (x as { data: unknown }).data;
  if (x && typeof x === 'object' && !Array.isArray(x) && 'symbols' in x) x = (x as { symbols: unknown }).symbols;
  if (!Array.isArray(x)) throw new Error('unexpected /v1/symbols body');
  return x
    .map((s) => (typeof s === 'string' ? s : (s as { symbol: string }).symbol))
    .filter((s) => typeof s === 'string');
}

export interface QuoteLike {
  symbol: string;
  price: string;
  updated_at: string;
}
/** Quotes of GET /v1/prices. */
export function quotesOf(body: unknown): QuoteLike[] {
  const q = (body as { data?: { quotes?: QuoteLike[] } })?.data?.quotes;
  if (!Array.isArray(q)) throw new Error('unexpected /v1/prices body');
  return q;
}

/** A new price near `price`, in the same format (integer rials, or dollars with their decimals). */
export function nudge(price: string, rnd: () => number): string {
  const dot = price.indexOf('.');
  const decimals = dot < 0 ? 0 : price.length - dot - 1;
  const v = Number(price);
  let next = v * (1 + (rnd() - 0.5) * 0.006);
  const unit = 10 ** -decimals;
  if (Math.abs(next - v) < unit) next = v + (rnd() < 0.5 ? -unit : unit);
  if (next <= 0) next = v + unit;
  return next.toFixed(decimals);
}

/** Deterministic PRNG: the sandbox's own mulberry32. */
export { mulberry32 as prng } from '../sandbox/random';

/**
 * When the module of `moduleUrl` (its `import.meta.url`) is the script node runs (`npx tsx
 * bench/relay/x.ts`): runs `measure` and prints its results as JSON; a failure sets exit code 1.
 */
export function printWhenRunAlone(moduleUrl: string, measure: () => Promise<unknown>): void {
  if (moduleUrl !== `file://${process.argv[1]}`) return;
  measure().then(
    (results) => console.log(JSON.stringify(results, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}

/**
 * A count and its baseline: `measure` with one (board, tab) under the key `${keyPrefix}-1`, then
 * with `n` under `${keyPrefix}-${n}`; both add the page errors they see to one list.
 */
export async function oneAndMany<T>(
  keyPrefix: string,
  n: number,
  measure: (key: string, count: number, errors: string[]) => Promise<T>,
): Promise<{ single: T; many: T; errors: string[] }> {
  const errors: string[] = [];
  const single = await measure(`${keyPrefix}-1`, 1, errors);
  const many = await measure(`${keyPrefix}-${n}`, n, errors);
  return { single, many, errors };
}

/** Every HTTP request a `node:http` server of this process starts (diagnostics channel). */
const REQUEST_START = 'http.server.request.start';

/**
 * Counts the requests that a `node:http` server of this process listening on `port` starts
 * (`match`: which count, by method and target), until `stop()`.
 */
export function countRequests(
  port: number,
  match: (method: string, url: string) => boolean = () => true,
): { count(): number; stop(): void } {
  let n = 0;
  const onRequest = (message: unknown) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    if (socket.localPort === port && match(request.method ?? '', request.url ?? '')) n += 1;
  };
  subscribe(REQUEST_START, onRequest);
  return { count: () => n, stop: () => unsubscribe(REQUEST_START, onRequest) };
}

/** A relay's (or service's) `/v1/prices` GETs. */
export const isPricesGet = (method: string, url: string): boolean => method === 'GET' && url.startsWith('/v1/prices');
