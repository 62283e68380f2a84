/**
 * The one gate every upstream request goes through: the `fetch` handed to the src/api client and
 * the src/live stream. It spends the budget, honours 429 (Retry-After, clamped) and 5xx (capped
 * backoff) by refusing requests for a while, and stops for good on 401/403. A refused request
 * gets a local answer shaped like the service's (429 with Retry-After, or the final 401/403), so
 * the clients' own error handling applies and nothing retries in a storm.
 */
import { parseRetryAfter, type FetchLike } from './from-src';
import type { Budget, Priority } from './budget';
import type { Leader } from './engine/types';
import type { Logger } from './log';
import type { Metrics } from './metrics';

/** Retry-After from upstream is believed within these bounds. */
export const MIN_PAUSE_MS = 1_000;
export const MAX_PAUSE_MS = 5 * 60_000;
/** 5xx backoff: doubles from the base up to the cap. */
const BACKOFF_BASE_MS = 1_000;
const BACKOFF_MAX_MS = 60_000;

export type UpstreamPath = 'prices' | 'stream' | 'history' | 'symbols' | 'other';

export function pathLabel(pathname: string): UpstreamPath {
  const m = /^\/v1\/(prices|stream|history|symbols)(\/|$)/.exec(pathname);
  return (m?.[1] as UpstreamPath | undefined) ?? 'other';
}

function localAnswer(status: number, code: string, message: string, retryAfterMs?: number): Response {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (retryAfterMs !== undefined) headers['Retry-After'] = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  return new Response(JSON.stringify({ error: { code, message } }), { status, headers });
}

export interface UpstreamOptions {
  budget: Budget;
  leader: Leader;
  metrics: Metrics;
  log: Logger;
  now?: () => number;
  fetch?: FetchLike;
}

export class UpstreamGate {
  /** Set on 401/403: the key is refused; nothing more is sent. */
  halted: { status: number; code: string } | undefined;
  private pausedUntil = 0;
  private failures5xx = 0;
  private readonly now: () => number;

  constructor(private readonly options: UpstreamOptions) {
    this.now = options.now ?? Date.now;
  }

  /** A fetch for the clients of one priority. */
  fetchFor(priority: Priority): FetchLike {
    return (input, init) => this.request(priority, input, init);
  }

  private async request(priority: Priority, input: string, init: RequestInit): Promise<Response> {
    const path = pathLabel(new URL(input).pathname);
    const refuse = (reason: string, res: Response): Response => {
      this.options.metrics.inc('relay_upstream_refused_total', 'Upstream requests not sent, by reason.', { path, reason });
      return res;
    };
    if (this.halted) return refuse('halted', localAnswer(this.halted.status, this.halted.code, 'upstream refused the key'));
    if (!this.options.leader.isLeader) return refuse('not_leader', localAnswer(503, 'not_leader', 'another process spends the budget'));
    const wait = this.pausedUntil - this.now();
    if (wait > 0) return refuse('backoff', localAnswer(429, 'rate_limited', 'upstream asked us to wait', wait));
    const taken = await this.options.budget.take(priority);
    if (!taken.ok) return refuse('budget', localAnswer(429, 'rate_limited', 'the relay budget is spent', taken.retryAfterMs));

    let res: Response;
    try {
      res = await (this.options.fetch ?? globalThis.fetch)(input, init);
    } catch (error) {
      this.options.metrics.inc('relay_upstream_requests_total', 'Upstream requests by path and status.', { path, status: 'network' });
      // Unreachable is treated as 5xx; an abort is the caller's (a re-subscribe, a timeout).
      if (!init.signal?.aborted) this.backOff(path, 'network');
      throw error;
    }
    this.options.metrics.inc('relay_upstream_requests_total', 'Upstream requests by path and status.', { path, status: String(res.status) });
    await this.learn(path, res);
    return res;
  }

  private async learn(path: UpstreamPath, res: Response): Promise<void> {
    if (res.ok) {
      this.failures5xx = 0;
      return;
    }
    if (res.status === 401 || res.status === 403) {
      // 403 plan_limit refuses one history span, not the key.
      const body = await res.clone().text().catch(() => '');
      if (res.status === 403 && body.includes('"plan_limit"')) return;
      this.halted = { status: res.status, code: res.status === 401 ? 'unauthorized' : 'forbidden' };
      this.options.log('upstream_key_refused', {
        path,
        status: res.status,
        message: 'the upstream refused UPSTREAM_KEY: no more upstream requests; visitors keep the last data; fix the key and restart',
      });
    } else if (res.status === 429) {
      const ms = parseRetryAfter(res.headers.get('retry-after'), this.now()) ?? MIN_PAUSE_MS * 5;
      this.pause(Math.min(MAX_PAUSE_MS, Math.max(MIN_PAUSE_MS, ms)), path, res.status);
    } else if (res.status >= 500) {
      this.backOff(path, res.status);
    }
  }

  /** Capped exponential backoff with equal jitter over consecutive failures. */
  private backOff(path: UpstreamPath, status: number | 'network'): void {
    this.failures5xx += 1;
    const cap = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.min(this.failures5xx - 1, 16));
    this.pause(cap / 2 + (cap / 2) * Math.random(), path, status);
  }

  private pause(ms: number, path: UpstreamPath, status: number | 'network'): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
    this.options.log('upstream_backoff', { path, status, wait_ms: Math.round(ms) });
  }
}
