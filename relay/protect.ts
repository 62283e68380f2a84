/**
 * Protection against visitors who ask too much: the visitor's address (X-Forwarded-For only from
 * trusted proxies), a per-address request rate, a per-address count of open streams, and the CORS
 * allowlist. Every table is bounded: idle entries are swept, and a full table refuses new
 * addresses rather than growing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';

/** Addresses tracked at most (about 100 bytes each). */
const MAX_TRACKED = 100_000;

function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function bare(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/** The visitor: the socket's address, or, behind a trusted proxy, the last untrusted X-Forwarded-For hop. */
export function clientAddress(req: IncomingMessage, trustProxy: readonly string[]): string {
  const trusted = (a: string): boolean => trustProxy.includes(bare(a)) || (trustProxy.includes('loopback') && isLoopback(a));
  let address = bare(req.socket.remoteAddress ?? 'unknown');
  if (!trusted(address)) return address;
  const forwarded = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',').map((s) => s.trim()).filter((s) => isIP(s) !== 0);
  while (hops.length > 0) {
    address = bare(hops.pop()!);
    if (!trusted(address)) break;
  }
  return address;
}

/** A token bucket per address: `perMinute` requests a minute, bursts of up to a quarter of that. */
export class RequestLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly burst: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.burst = Math.max(10, Math.ceil(perMinute / 4));
  }

  /** 0 when allowed (and counted), else the milliseconds until it would be. */
  take(address: string): number {
    const now = this.now();
    let bucket = this.buckets.get(address);
    if (!bucket) {
      if (this.buckets.size >= MAX_TRACKED) this.sweep(now);
      if (this.buckets.size >= MAX_TRACKED) return 1_000;
      this.buckets.set(address, (bucket = { tokens: this.burst, at: now }));
    }
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) * this.perMinute) / 60_000);
    bucket.at = now;
    if (bucket.tokens < 1) return Math.ceil(((1 - bucket.tokens) * 60_000) / this.perMinute);
    bucket.tokens -= 1;
    return 0;
  }

  /** Forgets full buckets: they are the same as no bucket. */
  sweep(now = this.now()): void {
    for (const [address, b] of this.buckets) {
      if (b.tokens + ((now - b.at) * this.perMinute) / 60_000 >= this.burst) this.buckets.delete(address);
    }
  }
}

/** Open streams per address. */
export class StreamSlots {
  private readonly open = new Map<string, number>();

  constructor(private readonly perAddress: number) {}

  /** A release function, or undefined when the address holds its limit. */
  acquire(address: string): (() => void) | undefined {
    const count = this.open.get(address) ?? 0;
    if (count >= this.perAddress || (count === 0 && this.open.size >= MAX_TRACKED)) return undefined;
    this.open.set(address, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(address) ?? 1) - 1;
      if (left <= 0) this.open.delete(address);
      else this.open.set(address, left);
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
