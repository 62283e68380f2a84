/**
 * The relay's configuration from environment variables (DESIGN.md §7), each validated at start:
 * a bad value stops the relay with a message naming the variable.
 */
import { isIP } from 'node:net';
import { RENDER_CACHE_BYTES } from './render/render-cache';

export type PlanName = 'demo' | 'basic' | 'professional' | 'enterprise';

/** SERVICE-SPEC §8: requests per minute and per day (null: no daily cap), history span in days. */
export const PLAN_BUDGETS: Record<PlanName, { perMinute: number; perDay: number | null; spanDays: number }> = {
  demo: { perMinute: 10, perDay: 1_000, spanDays: 7 },
  basic: { perMinute: 30, perDay: 20_000, spanDays: 30 },
  professional: { perMinute: 120, perDay: 200_000, spanDays: 365 },
  enterprise: { perMinute: 600, perDay: null, spanDays: 365 },
};

export interface RelayConfig {
  /** Undefined: relay a sandbox started in-process. */
  upstreamUrl?: string;
  upstreamKey: string;
  plan: PlanName;
  perMinute: number;
  perDay: number | null;
  budgetShare: number;
  port: number;
  host: string;
  /** Undefined: any origin. */
  allowedOrigins?: string[];
  /** Undefined: every symbol the upstream offers. */
  symbols?: string[];
  /** Proxies whose X-Forwarded-For is believed: addresses, or `loopback`. */
  trustProxy: string[];
  redisUrl?: string;
  /** Per visitor address: requests per minute (not streams), and concurrent streams. */
  clientRpm: number;
  clientStreams: number;
  /** Open connections of the whole process. */
  maxConnections: number;
  /** Who may read /metrics: addresses, CIDRs or `loopback`; undefined: anyone. */
  metricsAllow?: string[];
  /**
   * INCLUDERS: the servers of sites that include fragments for all their visitors (addresses, CIDRs
   * or `loopback`), whose `/render/` and rendered `embed.html` requests the per-address limit does
   * not count. Empty: none.
   */
  includers: string[];
  /** RENDER_CACHE_BYTES: the byte bound of the fragments' render cache. */
  renderCacheBytes: number;
  /**
   * The relay's address as pages reach it (PUBLIC_URL, no trailing slash): the fragments' module
   * script comes from there. Undefined: a root-relative `/price-board.js`, right when the page's
   * own server proxies the relay (nginx SSI), wrong for an include from another origin.
   */
  publicUrl?: string;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function fail(name: string, value: string, expected: string): never {
  throw new ConfigError(`${name}: ${JSON.stringify(value)} is not ${expected}`);
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) fail(name, raw, `an integer from ${min} to ${max}`);
  return Number(raw);
}

function list(env: Env, name: string): string[] | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function origins(env: Env): string[] | undefined {
  const items = list(env, 'ALLOWED_ORIGINS');
  if (!items || items.includes('*')) return undefined;
  for (const item of items) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(item);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin !== item) fail('ALLOWED_ORIGINS', item, 'an origin like https://example.com (or *)');
  }
  return items;
}

/** A list of addresses, CIDRs and `loopback` (and `*` where `star`), each checked. */
function addresses(env: Env, name: string, star: boolean): string[] | undefined {
  const items = list(env, name);
  for (const item of items ?? []) {
    const [net = '', prefix, extra] = item.split('/');
    const family = isIP(net);
    const max = family === 6 ? 128 : 32;
    const valid =
      item === 'loopback' ||
      (star && item === '*') ||
      (family !== 0 &&
        extra === undefined &&
        (prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= max)));
    if (!valid) fail(name, item, `an IP address, a CIDR like 10.0.0.0/8, or "loopback"`);
  }
  return items;
}

export function readConfig(env: Env = process.env): RelayConfig {
  const upstreamRaw = env.UPSTREAM_URL?.trim() || undefined;
  if (upstreamRaw !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(upstreamRaw);
    } catch {
      url = undefined;
    }
    if (!url || !/^https?:$/.test(url.protocol)) fail('UPSTREAM_URL', upstreamRaw, 'an http(s) URL');
  }
  const upstreamKey = env.UPSTREAM_KEY?.trim() || (upstreamRaw ? '' : 'enterprise-key');
  // The message names the variable, never the value: it is a secret.
  if (upstreamKey === '') throw new ConfigError('UPSTREAM_KEY: required when UPSTREAM_URL is set');
  if (/[^\x21-\x7e]/.test(upstreamKey))
    throw new ConfigError('UPSTREAM_KEY: has characters an HTTP header cannot carry');

  const planRaw = env.PLAN?.trim() || 'enterprise';
  if (!Object.hasOwn(PLAN_BUDGETS, planRaw)) fail('PLAN', planRaw, `one of ${Object.keys(PLAN_BUDGETS).join(', ')}`);
  const plan = planRaw as PlanName;
  const budget = PLAN_BUDGETS[plan];
  const perMinute = integer(env, 'UPSTREAM_RPM', budget.perMinute, 1, 1_000_000);
  const perDayRaw = integer(env, 'UPSTREAM_RPD', budget.perDay ?? 0, 0, 1_000_000_000);

  const shareRaw = env.BUDGET_SHARE?.trim() || '0.8';
  const budgetShare = Number(shareRaw);
  if (!/^\d*\.?\d+$/.test(shareRaw) || !(budgetShare > 0 && budgetShare <= 1))
    fail('BUDGET_SHARE', shareRaw, 'a number above 0 and at most 1');

  const symbols = list(env, 'SYMBOLS');
  for (const s of symbols ?? []) if (!/^[a-z0-9_]+$/.test(s)) fail('SYMBOLS', s, 'a lower-case symbol id');

  const trustProxy = list(env, 'TRUST_PROXY') ?? [];
  for (const p of trustProxy)
    if (p !== 'loopback' && isIP(p) === 0) fail('TRUST_PROXY', p, 'an IP address or "loopback"');

  const metricsAllow = addresses(env, 'METRICS_ALLOW', true);
  // No `*`: it would lift the limit of fragments for every address.
  const includers = addresses(env, 'INCLUDERS', false) ?? [];

  const redisRaw = env.REDIS_URL?.trim() || undefined;
  if (redisRaw !== undefined && !/^rediss?:\/\/\S+$/.test(redisRaw)) fail('REDIS_URL', redisRaw, 'a redis:// URL');
  const host = env.HOST?.trim() || '127.0.0.1';
  if (isIP(host) === 0 && !/^[a-z0-9.-]+$/i.test(host)) fail('HOST', host, 'an address or host name');

  const publicRaw = env.PUBLIC_URL?.trim() || undefined;
  let publicUrl: string | undefined;
  if (publicRaw !== undefined) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(publicRaw);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.search || parsed.hash || parsed.username)
      fail('PUBLIC_URL', publicRaw, 'an http(s) URL like https://prices.example.com');
    publicUrl = parsed.href.replace(/\/+$/, '');
  }

  return {
    upstreamUrl: upstreamRaw,
    upstreamKey,
    plan,
    perMinute,
    perDay: perDayRaw === 0 ? null : perDayRaw,
    budgetShare,
    port: integer(env, 'PORT', 8788, 0, 65_535),
    host,
    allowedOrigins: origins(env),
    symbols,
    trustProxy,
    redisUrl: redisRaw,
    clientRpm: integer(env, 'CLIENT_RPM', 120, 1, 1_000_000),
    clientStreams: integer(env, 'CLIENT_STREAMS', 8, 1, 100_000),
    maxConnections: integer(env, 'MAX_CONNECTIONS', 15_000, 1, 1_000_000),
    metricsAllow: metricsAllow?.includes('*') ? undefined : metricsAllow,
    includers,
    renderCacheBytes: integer(env, 'RENDER_CACHE_BYTES', RENDER_CACHE_BYTES, 64 * 1024, 2 ** 31),
    publicUrl,
  };
}
