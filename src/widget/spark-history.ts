/**
 * The 7-day lines of the `spark` cells, once per page: one history request per (service, key,
 * symbol) shared by every widget, its line kept for the page's life and fetched again hourly
 * while a cell shows it. A spark is decoration: a failure leaves the cell as it was (empty, or the
 * last line) and fires no `price-board-error`, since the quotes' requests with the same key report
 * the key, the plan and the network already; a failure that trying again can help (`retried`,
 * `transient`) is tried again with capped backoff, a final one (`unknown_symbol`, 401, 403) is not.
 */
import { backoffDelay, type BackoffOptions } from '../api/backoff';
import type { PriceClient } from '../api/client';
import { servicePart, type ServicePart } from '../api/services';
import { startTimer } from '../api/timer';
import { normalizeHistory } from '../model/history';
import { PriceBoardError } from '../shared/errors';
import { sparkline, type Sparkline } from '../chart/sparkline';

export { SPARK_HEIGHT, SPARK_WIDTH } from '../chart/sparkline';

/** The span of a spark (DESIGN.md §10). */
const SPARK_DAYS = 7;
/** A line is fetched again this long after it was (the relay keeps history 5 minutes). */
export const SPARK_REFRESH_MS = 60 * 60_000;
/** After the client's own retries failed: 5 s doubling up to 5 minutes, full jitter. */
const SPARK_RETRY: Readonly<BackoffOptions> = { baseMs: 5_000, maxMs: 5 * 60_000 };
/**
 * History requests in flight at once per service and key: a board of 40 symbols queues the rest,
 * leaving the browser's connections (six per origin over HTTP/1.1) to the chart and the quotes.
 */
export const SPARK_CONCURRENCY = 2;

interface Entry {
  line?: Sparkline;
  /** When the next request is due (epoch ms): at once, a refresh, or a retry. */
  dueAt: number;
  failures: number;
  /** A final failure: not asked again on this page. */
  final?: boolean;
  loading?: AbortController;
  cancelTimer?: () => void;
  readonly watchers: Set<() => void>;
}

/** The sparks of one service and key. */
export class SparkHistory {
  /** A service is kept while a cell shows one of its lines. */
  static readonly #part: ServicePart<SparkHistory> = {
    make: (client) => new SparkHistory(client),
    busy: (history) => history.#shown(),
  };

  /** The page's instance for `baseUrl` and `apiKey` (`servicePart`). */
  static for(baseUrl: string, apiKey: string | undefined): SparkHistory {
    return servicePart(baseUrl, apiKey, this.#part);
  }

  readonly #client: PriceClient;
  readonly #entries = new Map<string, Entry>();
  /** Entries due while {@link SPARK_CONCURRENCY} requests were in flight, oldest first. */
  readonly #queued = new Map<Entry, string>();
  #inFlight = 0;

  private constructor(client: PriceClient) {
    this.#client = client;
  }

  #shown(): boolean {
    for (const entry of this.#entries.values()) if (entry.watchers.size > 0) return true;
    return false;
  }

  /** The line of `symbol`, once one was fetched. */
  line(symbol: string): Sparkline | undefined {
    return this.#entries.get(symbol)?.line;
  }

  /**
   * Keeps the line of `symbol` fetched (now, unless fetched or failing recently) and fresh while
   * watched; `onChange` is called when a request for it ends. Returns the unwatch function.
   */
  watch(symbol: string, onChange: () => void): () => void {
    let entry = this.#entries.get(symbol);
    if (!entry) this.#entries.set(symbol, (entry = { dueAt: 0, failures: 0, watchers: new Set() }));
    const watched = entry;
    watched.watchers.add(onChange);
    if (watched.watchers.size === 1) this.#schedule(symbol, watched);
    return () => {
      if (!watched.watchers.delete(onChange) || watched.watchers.size > 0) return;
      // Nobody shows it: nothing runs for it (the line stays for the next one).
      watched.cancelTimer?.();
      watched.cancelTimer = undefined;
      this.#queued.delete(watched);
      watched.loading?.abort();
      watched.loading = undefined;
    };
  }

  #schedule(symbol: string, entry: Entry): void {
    if (entry.final || entry.loading || entry.cancelTimer || this.#queued.has(entry)) return;
    const wait = entry.dueAt - Date.now();
    if (wait <= 0) this.#start(symbol, entry);
    else
      entry.cancelTimer = startTimer(() => {
        entry.cancelTimer = undefined;
        this.#start(symbol, entry);
      }, wait);
  }

  #start(symbol: string, entry: Entry): void {
    if (this.#inFlight >= SPARK_CONCURRENCY) this.#queued.set(entry, symbol);
    else void this.#load(symbol, entry);
  }

  async #load(symbol: string, entry: Entry): Promise<void> {
    const loading = new AbortController();
    entry.loading = loading;
    this.#inFlight++;
    try {
      const points = normalizeHistory(await this.#client.history(symbol, SPARK_DAYS, loading.signal), {
        days: SPARK_DAYS,
      });
      entry.line = sparkline(points.map((p) => ({ time: p.time, value: p.close })));
      entry.failures = 0;
      entry.dueAt = Date.now() + SPARK_REFRESH_MS;
    } catch (error) {
      if (!loading.signal.aborted) this.#failed(entry, error);
    }
    this.#inFlight--;
    const [next] = this.#queued;
    if (next) {
      this.#queued.delete(next[0]);
      void this.#load(next[1], next[0]);
    }
    if (entry.loading !== loading) return;
    entry.loading = undefined;
    if (entry.watchers.size > 0) this.#schedule(symbol, entry);
    for (const onChange of [...entry.watchers]) onChange();
  }

  #failed(entry: Entry, error: unknown): void {
    if (error instanceof PriceBoardError && error.final) {
      entry.final = true;
      return;
    }
    const retryAfter = error instanceof PriceBoardError ? (error.retryAfterMs ?? 0) : 0;
    entry.dueAt = Date.now() + Math.max(backoffDelay(entry.failures++, SPARK_RETRY), retryAfter);
  }
}
