/**
 * Protection against visitors who ask too much: the visitor's address (X-Forwarded-For only from
 * trusted proxies; IPv6 counted by its /64), a per-address request rate (stream opens included),
 * a per-address count of open streams, the CORS allowlist and METRICS_ALLOW. Every table is
 * bounded: entries expire or are released, and a full table refuses new addresses rather than growing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BlockList, isIP } from 'node:net';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { withTimeLimit } from './time-limit';

/** How long a request waits for Redis's count before this process counts it instead. */
const REDIS_WAIT_MS = 1_000;

/** Addresses tracked at most per table (a few hundred bytes each). */
const MAX_TRACKED = 100_000;

export function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function bare(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/** The visitor: the socket's address, or, behind a trusted proxy, the last untrusted X-Forwarded-For hop. */
export function clientAddress(req: IncomingMessage, trustProxy: readonly string[]): string {
  const trusted = (a: string): boolean =>
    trustProxy.includes(bare(a)) || (trustProxy.includes('loopback') && isLoopback(a));
  let address = bare(req.socket.remoteAddress ?? 'unknown');
  if (!trusted(address)) return address;
  const forwarded = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter((s) => isIP(s) !== 0);
  while (hops.length > 0) {
    address = bare(hops.pop()!);
    if (!trusted(address)) break;
  }
  return address;
}

/**
 * The visitor of a connection whose request could not be read (no headers to believe): its
 * address, or undefined when it is a trusted proxy (the proxy refuses such requests itself).
 */
export function socketAddress(remote: string | undefined, trustProxy: readonly string[]): string | undefined {
  const address = bare(remote ?? 'unknown');
  if (trustProxy.includes(address) || (trustProxy.includes('loopback') && isLoopback(address))) return undefined;
  return address;
}

/**
 * The key a visitor is counted by: an IPv4 address as is, an IPv6 address by its /64 (one
 * subscriber's network: a host picks any address in it at will).
 */
export function visitorKey(address: string): string {
  if (isIP(address) !== 6) return address;
  // A trailing dotted quad (`64:ff9b::1.2.3.4`) is the last two groups.
  const hex = address
    .toLowerCase()
    .replace(
      /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
      (_, a, b, c, d) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`,
    );
  const [head = '', tail] = hex.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** What a limiter store needs of a node-redis client (the cluster's, `useRedisPackage`). */
export type LimiterRedis = ConstructorParameters<typeof RateLimiterRedis>[0]['storeClient'];

/**
 * Requests per visitor (stream opens included): `perMinute` a minute, in fixed windows that allow
 * a burst of a quarter of that (at least 10). rate-limiter-flexible counts them: in memory, or in
 * Redis for the whole cluster (a Redis that fails falls back to this process's memory count).
 * The memory store keeps one entry per address for one window: at most `maxTracked` entries live
 * at once, and a new address beyond that is refused rather than stored.
 */
export class RequestLimiter {
  readonly #memory: RateLimiterMemory;
  readonly #redis: RateLimiterRedis | undefined;
  readonly #windowSeconds: number;
  /** Entries the memory store created in each second of the last window (ring): they expire a window later. */
  readonly #created: number[];
  #createdAt = 0;
  readonly #maxTracked: number;

  constructor(perMinute: number, options: { redis?: LimiterRedis; keyPrefix?: string; maxTracked?: number } = {}) {
    const points = Math.max(10, Math.ceil(perMinute / 4));
    this.#windowSeconds = Math.max(1, Math.round((60 * points) / perMinute));
    this.#memory = new RateLimiterMemory({ points, duration: this.#windowSeconds });
    this.#created = Array<number>(this.#windowSeconds).fill(0);
    this.#maxTracked = options.maxTracked ?? MAX_TRACKED;
    if (options.redis) {
      this.#redis = new RateLimiterRedis({
        storeClient: options.redis,
        useRedisPackage: true,
        rejectIfRedisNotReady: true,
        keyPrefix: options.keyPrefix ?? 'rl',
        points,
        duration: this.#windowSeconds,
      });
    }
  }

  /** Entries alive in the memory store (created within the last window). */
  get tracked(): number {
    this.#roll();
    return this.#created.reduce((a, b) => a + b, 0);
  }

  #roll(): void {
    const second = Math.floor(Date.now() / 1000);
    for (let s = Math.max(this.#createdAt + 1, second - this.#windowSeconds + 1); s <= second; s++)
      this.#created[s % this.#windowSeconds] = 0;
    this.#createdAt = Math.max(this.#createdAt, second);
  }

  /** 0 when allowed (and counted), else the milliseconds until it would be. */
  async take(address: string): Promise<number> {
    const key = visitorKey(address);
    if (this.#redis) {
      try {
        // A Redis that hangs costs a request at most REDIS_WAIT_MS, never the request itself.
        if ((await withTimeLimit(this.#redis.consume(key), REDIS_WAIT_MS)) !== 'late') return 0;
      } catch (error) {
        if (error instanceof RateLimiterRes) return Math.max(1, error.msBeforeNext);
      }
    }
    // No Redis, or Redis away or slow: this process counts on its own until it answers again.
    return this.#takeHere(key);
  }

  async #takeHere(key: string): Promise<number> {
    if (this.tracked >= this.#maxTracked && !(await this.#memory.get(key))) return 1_000;
    try {
      const res = await this.#memory.consume(key);
      if (res.consumedPoints === 1) {
        this.#roll();
        this.#created[this.#createdAt % this.#windowSeconds]! += 1;
      }
      return 0;
    } catch (error) {
      if (error instanceof RateLimiterRes) return Math.max(1, error.msBeforeNext);
      throw error;
    }
  }
}

/** Open streams per address. */
export class StreamSlots {
  readonly #open = new Map<string, number>();

  readonly #perAddress: number;

  constructor(perAddress: number) {
    this.#perAddress = perAddress;
  }

  /** A release function, or undefined when the address holds its limit. */
  acquire(visitor: string): (() => void) | undefined {
    const address = visitorKey(visitor);
    const count = this.#open.get(address) ?? 0;
    if (count >= this.#perAddress || (count === 0 && this.#open.size >= MAX_TRACKED)) return undefined;
    this.#open.set(address, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#open.get(address) ?? 1) - 1;
      if (left <= 0) this.#open.delete(address);
      else this.#open.set(address, left);
    };
  }
}

/**
 * CORS: any origin (`allowed` undefined) or the listed ones. A page of another origin gets no
 * Access-Control-Allow-Origin, so its browser refuses the answer. Returns false for an origin
 * not allowed.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse, allowed: readonly string[] | undefined): boolean {
  const origin = req.headers.origin;
  res.setHeader('Vary', 'Origin');
  if (origin === undefined) {
    if (!allowed) res.setHeader('Access-Control-Allow-Origin', '*');
    return true;
  }
  if (allowed && !allowed.includes(origin)) return false;
  res.setHeader('Access-Control-Allow-Origin', allowed ? origin : '*');
  res.setHeader('Access-Control-Expose-Headers', 'Retry-After, ETag, Age, Warning');
  return true;
}

/**
 * METRICS_ALLOW as a test of the visitor's address: `loopback`, addresses and CIDRs (node's
 * BlockList matches both families; an IPv4-mapped IPv6 address is matched as IPv4).
 */
export function addressMatcher(items: readonly string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const item of items) {
    if (item === 'loopback') {
      list.addSubnet('127.0.0.0', 8, 'ipv4');
      list.addAddress('::1', 'ipv6');
      continue;
    }
    const [net = '', prefix] = item.split('/');
    const type = isIP(net) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(net, type);
    else list.addSubnet(net, Number(prefix), type);
  }
  return (address) => {
    const a = bare(address);
    const family = isIP(a);
    return family !== 0 && list.check(a, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * One log line for a flood of the same thing (malformed requests): the first at once, then at most
 * one a window, counting those since the last line. Strangers' junk never becomes a flood of lines.
 */
export class FloodLog {
  #count = 0;
  #loggedAt = -Infinity;

  readonly #write: (fields: Record<string, unknown>) => void;
  readonly #windowMs: number;
  readonly #now: () => number;

  constructor(write: (fields: Record<string, unknown>) => void, windowMs = 60_000, now: () => number = Date.now) {
    this.#write = write;
    this.#windowMs = windowMs;
    this.#now = now;
  }

  note(sample: Record<string, unknown>): void {
    this.#count += 1;
    const now = this.#now();
    if (now - this.#loggedAt < this.#windowMs) return;
    this.#write({ count: this.#count, ...sample });
    this.#count = 0;
    this.#loggedAt = now;
  }
}
