/**
 * What the relay says about itself: its gauges on `/metrics` (the budget, leadership, Redis, the
 * data's age) and the body of `/healthz` (healthy while the upstream data is current and, in a
 * cluster, Redis answers).
 */
import type { ServerResponse } from 'node:http';
import type { Budget } from './budget';
import type { Engine } from './engine/types';
import type { FanOut } from './fanout';
import type { Feed } from './feed';
import type { Metrics } from './metrics';
import type { UpstreamGate } from './upstream';

export interface RelayStatusDeps {
  metrics: Metrics;
  budget: Budget;
  engine: Engine;
  feed: Feed;
  gate: UpstreamGate;
  fanout: FanOut;
  /** The relay is shutting down. */
  closing: () => boolean;
}

export class RelayStatus {
  /** The budget spent, as last read (on each `/metrics`). */
  #spent = { minute: 0, day: 0 };

  readonly #deps: RelayStatusDeps;

  constructor(deps: RelayStatusDeps) {
    this.#deps = deps;
    const { metrics, budget, feed } = deps;
    const { cluster, leader } = deps.engine;
    metrics.gauge(
      'relay_budget_minute_limit',
      'Upstream requests the relay may spend per minute.',
      () => budget.perMinute,
    );
    metrics.gauge('relay_budget_spent_minute', 'Upstream requests in the last 60 s.', () => this.#spent.minute);
    metrics.gauge('relay_budget_spent_day', 'Upstream requests this (Tehran) day.', () => this.#spent.day);
    if (cluster) {
      metrics.gauge(
        'relay_leader',
        'Whether this process is the cluster leader (spends upstream): 1 leader, 0 follower.',
        () => (leader.isLeader ? 1 : 0),
      );
      metrics.gauge('relay_redis_connected', 'Whether Redis answers: 1 connected, 0 away.', () =>
        cluster.connected ? 1 : 0,
      );
    }
    metrics.gauge('relay_data_age_seconds', 'Seconds since the last upstream quote data.', () =>
      Number.isFinite(feed.ageSeconds) ? feed.ageSeconds : -1,
    );
  }

  /** The metrics' text, with the budget spent read now. */
  async metricsText(): Promise<string> {
    this.#spent = await this.#deps.budget.spent();
    return this.#deps.metrics.text();
  }

  /** Answers `/healthz`: 200 while healthy, else 503, with what it is made of. */
  health(res: ServerResponse): void {
    const { gate, feed, fanout } = this.#deps;
    const { cluster, leader } = this.#deps.engine;
    const ok = !this.#deps.closing() && !gate.halted && feed.fresh && cluster?.connected !== false;
    const body = {
      status: ok ? 'ok' : 'unhealthy',
      data_age_seconds: Number.isFinite(feed.ageSeconds) ? feed.ageSeconds : null,
      upstream: gate.halted ? 'key_refused' : feed.mode,
      clients: fanout.size,
      ...(cluster && {
        role: leader.isLeader ? 'leader' : 'follower',
        redis: cluster.connected ? 'connected' : 'away',
      }),
    };
    res.writeHead(ok ? 200 : 503, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify(body));
  }
}
