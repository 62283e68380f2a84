/** One subscriber of a hub: its symbols, and delivery filtered to them. */
import type { PriceBoardError } from '../shared/errors';
import type { ConnectionStatus, Quote } from '../shared/types';
import type { HubListener, QuotesMeta } from './hub-types';
import { safely } from './safely';

/** A listener and what it asked for. Nothing reaches the listener after `closed` is set. */
export class Subscriber {
  readonly listener: HubListener;
  /** `pollInterval` in seconds. */
  readonly pollSeconds: number;
  closed = false;
  #list: string[] = [];
  #wanted = new Set<string>();
  /** Symbols whose known quotes are still to be delivered (just subscribed or added). */
  #pending = new Set<string>();
  #greeted = false;
  #lastStatus: ConnectionStatus | undefined;
  #lastMissing = '';

  constructor(symbols: string[], listener: HubListener, pollSeconds: number) {
    this.listener = listener;
    this.pollSeconds = pollSeconds;
    this.setSymbols(symbols);
  }

  /** The symbols, in the subscriber's order. */
  get symbols(): readonly string[] {
    return this.#list;
  }

  /** Replaces the symbols; the added ones become pending. */
  setSymbols(symbols: string[]): void {
    for (const s of symbols) if (!this.#wanted.has(s)) this.#pending.add(s);
    this.#list = symbols;
    this.#wanted = new Set(symbols);
  }

  /** Whether `symbol` is one of mine. */
  wants(symbol: string): boolean {
    return this.#wanted.has(symbol);
  }

  /** Takes the pending symbols; `first` is true on the very first call (a new subscriber). */
  takePending(): { symbols: string[]; first: boolean } | undefined {
    if (this.#pending.size === 0 && this.#greeted) return undefined;
    const symbols = [...this.#pending].filter((s) => this.#wanted.has(s));
    const first = !this.#greeted;
    this.#pending.clear();
    this.#greeted = true;
    return { symbols, first };
  }

  /** Delivers the quotes that are mine, if any. */
  quotes(quotes: readonly Quote[], meta: QuotesMeta): void {
    if (this.closed) return;
    const mine = quotes.filter((q) => this.#wanted.has(q.symbol));
    if (mine.length > 0) safely(() => this.listener.quotes(mine, { ...meta }));
  }

  /** Delivers a status unless it is the one delivered last. */
  status(status: ConnectionStatus): void {
    if (this.closed || status === this.#lastStatus) return;
    this.#lastStatus = status;
    safely(() => this.listener.status(status));
  }

  /** Delivers an error. */
  error(error: PriceBoardError): void {
    if (!this.closed) safely(() => this.listener.error(error));
  }

  /** Tells that the service answers again after a reported error. */
  recovered(): void {
    if (!this.closed && this.listener.recovered) safely(() => this.listener.recovered?.());
  }

  /** Delivers my missing symbols, when that list changed. */
  missing(missing: ReadonlySet<string>): void {
    if (this.closed) return;
    const mine = this.#list.filter((s) => missing.has(s));
    const key = mine.join(',');
    if (key === this.#lastMissing) return;
    this.#lastMissing = key;
    safely(() => this.listener.missing(mine));
  }
}
