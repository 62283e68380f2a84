/**
 * The relay's Prometheus metrics through prom-client: its counters, gauges and the fan-out lag
 * histogram, plus prom-client's default process metrics (CPU, memory, open files, GC) and the
 * event-loop lag, which a hand-written exposition would have to re-implement. Each relay has its
 * own Registry, so several relays in one process (tests, the bench) never share or clash.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

type Labels = Record<string, string>;

/** Fan-out lag buckets in seconds. */
const LAG_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

function labelKey(labels: Labels): string {
  return JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)));
}

export class Metrics {
  readonly registry = new Registry();
  readonly #counters = new Map<string, { counter: Counter; values: Map<string, number> }>();
  readonly #lag: Histogram;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    this.#lag = new Histogram({
      name: 'relay_fanout_lag_seconds',
      help: 'Time from receiving an upstream change to writing it to every client.',
      buckets: LAG_BUCKETS,
      registers: [this.registry],
    });
  }

  /** Counters are made on first use; every use of a name carries the same label names. */
  inc(name: string, help: string, labels: Labels = {}, by = 1): void {
    let entry = this.#counters.get(name);
    if (!entry) {
      entry = {
        counter: new Counter({ name, help, labelNames: Object.keys(labels), registers: [this.registry] }),
        values: new Map(),
      };
      this.#counters.set(name, entry);
    }
    entry.counter.inc(labels, by);
    const key = labelKey(labels);
    entry.values.set(key, (entry.values.get(key) ?? 0) + by);
  }

  /** The current value of a counter (tests, logs). */
  value(name: string, labels: Labels = {}): number {
    return this.#counters.get(name)?.values.get(labelKey(labels)) ?? 0;
  }

  /** A gauge read when scraped. */
  gauge(name: string, help: string, read: () => number): void {
    this.registry.removeSingleMetric(name);
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  observeLag(seconds: number): void {
    this.#lag.observe(seconds);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
