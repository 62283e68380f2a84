/**
 * Offering upstream changes to the engine (numbered, recorded for today's chart, published), and
 * what it refused: a cluster's Redis away, or silent, while the upstream stream stayed open. The
 * newest refused change per symbol, with when it came, is offered again every second until the
 * engine takes it: the upstream sends a change once, and without this it would reach no client
 * until that symbol changed again.
 */
import { admitQuote, type Quote } from './from-src';
import type { Engine, RelayEvent } from './engine/types';
import type { Logger } from './log';

/** How soon quotes the engine could not take (its Redis away or silent) are offered to it again. */
const REAPPLY_MS = 1_000;

export interface EngineOfferOptions {
  engine: Engine;
  log: Logger;
  now: () => number;
  closed: () => boolean;
  /** The engine took quotes received at `receivedAt` (their changes are published next). */
  onApplied: (receivedAt: number) => void;
}

export class EngineOffer {
  /** A streak of changes the engine refused (Redis out of memory, say): when it began, and how many. */
  #failing: { since: number; count: number } | undefined;
  /** The refused changes, newest per symbol. */
  readonly #unapplied = new Map<string, { quote: Quote; receivedAt: number }>();
  /** Raised whenever this member stops leading: a refusal of what it offered before is not held. */
  #leadTerm = 0;
  #reapplyTimer: NodeJS.Timeout | undefined;

  readonly #options: EngineOfferOptions;

  constructor(options: EngineOfferOptions) {
    this.#options = options;
  }

  /** Whether it holds changes the engine refused (not yet served to anyone). */
  get holding(): boolean {
    return this.#unapplied.size > 0;
  }

  /** This member stops leading: what it holds is dropped (the next leader's first snapshot has the changes). */
  stop(): void {
    this.#leadTerm++;
    this.#unapplied.clear();
    // A streak of refusals ends with the lead: the next leader's first refusal is logged anew.
    this.#failing = undefined;
    clearTimeout(this.#reapplyTimer);
    this.#reapplyTimer = undefined;
  }

  /** Numbers and publishes `quotes`; held, and offered again later, when the engine refuses them. */
  async apply(quotes: Quote[], receivedAt: number): Promise<void> {
    const { state, broker, record } = this.#options.engine;
    const term = this.#leadTerm;
    // What is held of the same time or older is superseded (a correction stays corrected), before
    // it could be offered again behind these.
    for (const q of quotes) {
      const held = this.#unapplied.get(q.symbol);
      if (held && timeOf(held.quote) <= timeOf(q)) this.#unapplied.delete(q.symbol);
    }
    let events: RelayEvent[];
    try {
      events = await state.apply(quotes, receivedAt);
    } catch (error) {
      if (term === this.#leadTerm) this.#hold(quotes, receivedAt);
      throw error;
    }
    this.#options.onApplied(receivedAt);
    if (this.#failing) {
      const { since, count } = this.#failing;
      this.#failing = undefined;
      this.#options.log('ingest_recovered', {
        failures: count,
        seconds: Math.round((this.#options.now() - since) / 1000),
      });
    }
    if (events.length > 0) {
      // Recorded for `days=1` as it is published, the record's write first: one process records
      // before it fans out, and in a cluster both go down one Redis connection in this order, so
      // whoever receives a change finds it in today's chart.
      const recorded = record.add(events).catch((error: unknown) => this.#options.log('record_failed', { error }));
      await Promise.all([recorded, broker.publish(events)]);
    }
  }

  /** Logs the first failure of a streak (then `ingest_recovered`), not each: a refusing Redis fails every change. */
  failed(error: unknown): void {
    if (this.#failing) this.#failing.count++;
    else {
      this.#failing = { since: this.#options.now(), count: 1 };
      this.#options.log('ingest_failed', { error });
    }
  }

  /** Keeps the newest of each symbol (of one time, the later received: a correction). */
  #hold(quotes: Quote[], receivedAt: number): void {
    for (const quote of quotes) {
      const held = this.#unapplied.get(quote.symbol);
      const newer =
        !held ||
        timeOf(held.quote) < timeOf(quote) ||
        (timeOf(held.quote) === timeOf(quote) && held.receivedAt <= receivedAt);
      if (newer) this.#unapplied.set(quote.symbol, { quote, receivedAt });
    }
    this.#scheduleReapply();
  }

  #scheduleReapply(): void {
    if (this.#reapplyTimer || this.#options.closed()) return;
    this.#reapplyTimer = setTimeout(() => this.#reapply(), REAPPLY_MS);
    this.#reapplyTimer.unref();
  }

  #reapply(): void {
    this.#reapplyTimer = undefined;
    const held = [...this.#unapplied.values()];
    if (held.length === 0) return;
    // A lease run out on this member's clock may yet be renewed: held until the member is told it
    // lost the lead (stop() drops them; the next leader's first snapshot has the changes).
    if (!this.#options.engine.leader.isLeader) return this.#scheduleReapply();
    this.#unapplied.clear();
    // Each dated when it came (the data is no fresher for being offered again), in that order.
    // Refused again: held again. A quote the engine already took (before its answer was lost)
    // numbers nothing.
    const times = [...new Set(held.map((h) => h.receivedAt))].sort((a, b) => a - b);
    const term = this.#leadTerm;
    void (async () => {
      for (const at of times) {
        if (this.#options.closed() || term !== this.#leadTerm) return; // no longer this member's to offer
        const quotes = held.filter((h) => h.receivedAt === at).map((h) => h.quote);
        await this.apply(quotes, at).catch((error: unknown) => this.failed(error));
      }
    })();
  }
}

/** A quote's time (ms) as the engines read it (a far-future one as now), unreadable as the earliest. */
function timeOf(quote: Quote): number {
  return admitQuote(quote, Date.now())?.time ?? -Infinity;
}
