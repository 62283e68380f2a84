/**
 * Prometheus text exposition of the relay's counters. Hand-written: a few counters, gauges and one
 * histogram need no client library.
 */
type Labels = Record<string, string>;

/** Fan-out lag buckets in seconds. */
const LAG_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

function labelText(labels: Labels): string {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${v.replace(/["\\\n]/g, '_')}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
}

export class Metrics {
  private readonly counters = new Map<string, { help: string; values: Map<string, number> }>();
  private readonly gauges = new Map<string, { help: string; read: () => number }>();
  private readonly lag = { counts: LAG_BUCKETS.map(() => 0), sum: 0, count: 0 };

  inc(name: string, help: string, labels: Labels = {}, by = 1): void {
    let counter = this.counters.get(name);
    if (!counter) this.counters.set(name, (counter = { help, values: new Map() }));
    const key = labelText(labels);
    counter.values.set(key, (counter.values.get(key) ?? 0) + by);
  }

  /** The current value of a counter (tests, logs). */
  value(name: string, labels: Labels = {}): number {
    return this.counters.get(name)?.values.get(labelText(labels)) ?? 0;
  }

  gauge(name: string, help: string, read: () => number): void {
    this.gauges.set(name, { help, read });
  }

  observeLag(seconds: number): void {
    this.lag.sum += seconds;
    this.lag.count += 1;
    LAG_BUCKETS.forEach((bound, i) => {
      if (seconds <= bound) this.lag.counts[i]! += 1;
    });
  }

  text(): string {
    const out: string[] = [];
    for (const [name, { help, values }] of this.counters) {
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`);
      for (const [labels, value] of values) out.push(`${name}${labels} ${value}`);
    }
    for (const [name, { help, read }] of this.gauges) {
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, `${name} ${read()}`);
    }
    const h = 'relay_fanout_lag_seconds';
    out.push(`# HELP ${h} Time from receiving an upstream change to writing it to every client.`, `# TYPE ${h} histogram`);
    LAG_BUCKETS.forEach((bound, i) => out.push(`${h}_bucket{le="${bound}"} ${this.lag.counts[i]}`));
    out.push(`${h}_bucket{le="+Inf"} ${this.lag.count}`, `${h}_sum ${this.lag.sum}`, `${h}_count ${this.lag.count}`);
    return `${out.join('\n')}\n`;
  }
}
