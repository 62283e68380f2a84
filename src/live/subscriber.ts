/** One subscriber of a hub: its symbols, and delivery filtered to them. */
import type { PriceBoardError } from '../shared/errors';
import type { ConnectionStatus, Quote } from '../shared/types';

/** Meta data delivered with quotes. */
export interface QuotesMeta {
  /** `delay_seconds` of the last `/v1/prices` answer. */
  delaySeconds?: number;
  /** Time of the last answer or stream snapshot. */
  at?: string;
}

/** What a subscriber hears, as typed events to its one listener. None comes after `close()`. */
export type HubEvent =
  /** Applied quotes (newer than the one held, or its correction) of my symbols; known ones arrive right after subscribing. */
  | { kind: 'quotes'; quotes: Quote[]; meta: QuotesMeta }
  /**
   * The connection state, at once after subscribing and on every change; `held`: the quotes are
   * still those of the relay's render (`hub.ts` `startFrom`), until the stream is live or the
   * service answers.
   */
  | { kind: 'status'; status: ConnectionStatus; held: boolean }
  /**
   * A failure, `messageFa` for people. A final one (401, 403...) stops the hub: status `error`.
   * `unknown_symbol` (with `data.symbols`, mine only) is per symbol and does not stop anything.
   */
  | { kind: 'error'; error: PriceBoardError }
  /**
   * Requested symbols the service did not return / rejected: the full current list of mine
   * (`[]` when none is missing any more), sent whenever it changes.
   */
  | { kind: 'missing'; symbols: string[] }
  /**
   * The service answers again after a (non-final) error was reported: a prices request succeeded,
   * the stream opened or delivered a valid event. Sent once per recovery, quotes or not (with
   * the market closed nothing changes), so a transient error can be cleared on it.
   */
  | { kind: 'recovered' };

/** A subscriber's one listener. */
export type HubListener = (event: HubEvent) => void;

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
  #lastStatus: string | undefined;
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
    if (mine.length > 0) this.#tell({ kind: 'quotes', quotes: mine, meta: { ...meta } });
  }

  /** Delivers a status unless it is the one delivered last. */
  status(status: ConnectionStatus, held: boolean): void {
    if (this.closed || status + held === this.#lastStatus) return;
    this.#lastStatus = status + held;
    this.#tell({ kind: 'status', status, held });
  }

  /** Delivers an error. */
  error(error: PriceBoardError): void {
    if (!this.closed) this.#tell({ kind: 'error', error });
  }

  /** Tells that the service answers again after a reported error. */
  recovered(): void {
    if (!this.closed) this.#tell({ kind: 'recovered' });
  }

  /** Delivers my missing symbols, when that list changed. */
  missing(missing: ReadonlySet<string>): void {
    if (this.closed) return;
    const mine = this.#list.filter((s) => missing.has(s));
    const key = mine.join(',');
    if (key === this.#lastMissing) return;
    this.#lastMissing = key;
    this.#tell({ kind: 'missing', symbols: mine });
  }

  /** A listener that throws must not break delivery to the others, nor the hub. */
  #tell(event: HubEvent): void {
    try {
      this.listener(event);
    } catch (error) {
      const report = (globalThis as { reportError?: (e: unknown) => void }).reportError;
      if (report) report(error);
      else console.error(error);
    }
  }
}
