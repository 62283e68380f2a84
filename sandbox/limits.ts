// Keys, plans and request limits (SERVICE-SPEC 8): per-minute limits over a sliding 60 s window
// and per-day limits over the Tehran day, counted per key (a `KEY:suffix` has its own counters).
import { nextTehranMidnight, tehranDay } from './tehran';

export type PlanName = 'demo' | 'basic' | 'professional' | 'enterprise';

export interface Plan {
  name: PlanName;
  perMinute: number;
  /** null: no daily cap. */
  perDay: number | null;
  /** Longest history span in days. */
  spanDays: number;
}

export const PLANS: Record<PlanName, Plan> = {
  demo: { name: 'demo', perMinute: 10, perDay: 1_000, spanDays: 7 },
  basic: { name: 'basic', perMinute: 30, perDay: 20_000, spanDays: 30 },
  professional: { name: 'professional', perMinute: 120, perDay: 200_000, spanDays: 365 },
  enterprise: { name: 'enterprise', perMinute: 600, perDay: null, spanDays: 365 },
};

/** The fixed keys; `origins` restricts a key to pages of those origins. */
export const KEYS: Record<string, { plan: PlanName; origins?: string[] }> = {
  'demo-key': { plan: 'demo' },
  'basic-key': { plan: 'basic' },
  'pro-key': { plan: 'professional' },
  'enterprise-key': { plan: 'enterprise' },
  'restricted-key': { plan: 'enterprise', origins: ['https://allowed.example'] },
};

export interface Client {
  /** The key as sent, suffix included: the unit of rate limiting. */
  key: string;
  plan: Plan;
  origins?: string[];
}

/** The client of an `X-API-Key` value, or undefined for a missing or unknown key. */
export function resolveKey(header: string | undefined): Client | undefined {
  if (!header) return undefined;
  const colon = header.indexOf(':');
  const base = colon < 0 ? header : header.slice(0, colon);
  const entry = Object.hasOwn(KEYS, base) ? KEYS[base] : undefined;
  return entry && { key: header, plan: PLANS[entry.plan], origins: entry.origins };
}

export function originAllowed(client: Client, origin: string | undefined): boolean {
  return !client.origins || (origin !== undefined && client.origins.includes(origin));
}

export type LimitResult = { ok: true } | { ok: false; retryAfter: number; scope: 'minute' | 'day' };

/** Keys whose counters are kept; beyond it the least recently used key's counters go. */
export const DEFAULT_MAX_KEYS = 10_000;

export class RateLimiter {
  // One entry per key, in least-recently-used order (a Map iterates in insertion order): a
  // caller inventing a new `KEY:suffix` per request must not grow the sandbox without bound.
  readonly #counters = new Map<string, { stamps: number[]; day: string; count: number }>();

  readonly #now: () => number;
  readonly #maxKeys: number;

  constructor(now: () => number, maxKeys = DEFAULT_MAX_KEYS) {
    this.#now = now;
    this.#maxKeys = maxKeys;
  }

  /** Number of keys with counters (bounded by `maxKeys`). */
  get size(): number {
    return this.#counters.size;
  }

  /** Counts the request if it is allowed; `retryAfter` is whole seconds until a slot frees. */
  take(client: Client): LimitResult {
    const now = this.#now();
    const today = tehranDay(now);
    const held = this.#counters.get(client.key);
    this.#counters.delete(client.key);
    const entry = {
      stamps: (held?.stamps ?? []).filter((t) => t > now - 60_000),
      day: today,
      count: held?.day === today ? held.count : 0,
    };
    this.#counters.set(client.key, entry);
    if (this.#counters.size > this.#maxKeys) this.#counters.delete(this.#counters.keys().next().value!);
    const { stamps, count } = entry;
    if (stamps.length >= client.plan.perMinute) {
      return { ok: false, retryAfter: Math.max(1, Math.ceil((stamps[0]! + 60_000 - now) / 1000)), scope: 'minute' };
    }
    if (client.plan.perDay !== null && count >= client.plan.perDay) {
      return { ok: false, retryAfter: Math.max(1, Math.ceil((nextTehranMidnight(now) - now) / 1000)), scope: 'day' };
    }
    stamps.push(now);
    entry.count = count + 1;
    return { ok: true };
  }

  reset(): void {
    this.#counters.clear();
  }
}
