/**
 * The quote poll (DESIGN.md §7.1): one batched `/v1/prices` for the symbols the upstream stream
 * does not carry (all of them while it is down), again at the budget's interval while any are
 * left. The gate decides whether a request goes; this decides when to ask.
 */
import { PriceBoardError, PriceClient, type Quote } from './from-src';
import type { Budget } from './budget';
import type { Leader } from './engine/types';
import { isLocalRefusal } from './local-answers';
import type { Logger } from './log';
import type { UpstreamGate } from './upstream';

/** Two polls for symbols just asked for are at least this far apart. */
const MIN_POLL_GAP_MS = 2_000;

/** What the poll and the upstream stream both work with: the service, its gate and budget, who leads. */
export interface UpstreamContext {
  baseUrl: string;
  apiKey: string;
  gate: UpstreamGate;
  budget: Budget;
  leader: Leader;
  log: Logger;
  now: () => number;
}

export interface PollerOptions extends UpstreamContext {
  /** What to ask for: the symbols in use that the stream does not carry. */
  uncovered: () => string[];
  /** Whether any quote data came yet (until then nothing waits a whole interval). */
  hasData: () => boolean;
  closed: () => boolean;
  /** Takes the quotes a poll brought. */
  ingest: (quotes: Quote[]) => Promise<void>;
  /** A failure that is no answer of the service (the engine's, say). */
  failed: (error: unknown) => void;
  /** Symbols the upstream does not know: no longer in use. */
  onUnknownSymbols: (ids: string[]) => void;
}

export class Poller {
  #timer: NodeJS.Timeout | undefined;
  #polling = false;
  #lastPollAt = -Infinity;
  readonly #client: PriceClient;

  readonly #options: PollerOptions;

  constructor(options: PollerOptions) {
    this.#options = options;
    this.#client = new PriceClient({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      fetch: options.gate.fetchFor('quotes'),
      // The gate decides when to try again; the client's own retries would spend the budget.
      retry: { retries: 0, baseMs: 0, maxMs: 0 },
    });
  }

  /** A poll for the uncovered symbols as soon as the last one allows. */
  soon(): void {
    if (this.#polling) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.schedule(Math.max(0, this.#lastPollAt + MIN_POLL_GAP_MS - this.#options.now()));
  }

  /** The stream went down: at once while nothing is held (the first snapshot), else at the budget's interval. */
  streamDown(): void {
    this.schedule(this.#options.hasData() ? this.#options.budget.pollIntervalMs() : 0);
  }

  /** A poll in `ms`, unless one is scheduled or running. */
  schedule(ms: number): void {
    if (this.#options.closed() || this.#timer || this.#polling) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#pollOnce();
    }, ms);
  }

  /** Drops the scheduled poll (this member stops leading, or closes). */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** One batched `/v1/prices` for what the stream does not carry; again at the budget's interval while needed. */
  async #pollOnce(): Promise<void> {
    const { gate, budget, leader, log } = this.#options;
    const symbols = this.#options.uncovered();
    if (symbols.length === 0 || this.#options.closed() || gate.halted || !leader.isLeader) return;
    let wait = budget.pollIntervalMs();
    this.#polling = true;
    this.#lastPollAt = this.#options.now();
    try {
      const data = await this.#client.prices(symbols);
      await this.#options.ingest(data.quotes);
    } catch (error) {
      if (error instanceof PriceBoardError) {
        log('upstream_poll_error', { code: error.code, status: error.status });
        const unknown = error.code === 'unknown_symbol' && Array.isArray(error.data?.symbols) ? error.data.symbols : [];
        // Visitors waiting for a refused symbol get the refusal now, not after the ready timeout.
        if (unknown.length > 0) this.#options.onUnknownSymbols(unknown.map(String));
        // Nothing was asked (the gate's pause, the budget), or nothing is held yet: again as soon
        // as the gate allows, not a whole interval later (a day share of 160 waited 12 minutes).
        const soon = isLocalRefusal(error) || !this.#options.hasData();
        const allowed = Math.max(MIN_POLL_GAP_MS, error.retryAfterMs ?? 0, gate.pausedFor('prices'));
        wait = soon ? allowed : Math.max(wait, error.retryAfterMs ?? 0);
      } else {
        this.#options.failed(error);
      }
    } finally {
      this.#polling = false;
    }
    if (this.#options.uncovered().length > 0) this.schedule(wait);
  }
}
