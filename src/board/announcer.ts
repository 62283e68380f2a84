/**
 * A polite live region's text, throttled: screen readers hear at most one announcement per
 * interval, and the latest one wins when several come in between; and what the board announces
 * in it (`PriceAnnouncer`).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { RowView } from '../widget/row-view';

/** Price changes are announced at most this often. */
const ANNOUNCE_INTERVAL_MS = 10_000;

export class Announcer implements ReactiveController {
  /** The live region's current text. */
  text = '';
  #last = -Infinity;
  #queued: string | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  readonly #host: ReactiveControllerHost;
  readonly #intervalMs: number;

  constructor(host: ReactiveControllerHost, intervalMs = ANNOUNCE_INTERVAL_MS) {
    this.#host = host;
    this.#intervalMs = intervalMs;
    host.addController(this);
  }

  announce(message: string): void {
    const wait = this.#last + this.#intervalMs - Date.now();
    if (wait <= 0) {
      this.#say(message);
      return;
    }
    this.#queued = message;
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      if (this.#queued !== undefined) this.#say(this.#queued);
    }, wait);
  }

  hostDisconnected(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#queued = undefined;
  }

  #say(message: string): void {
    this.#queued = undefined;
    this.#last = Date.now();
    this.text = message;
    this.#host.requestUpdate();
  }
}

/** What the price announcements read of the board's quotes. */
export interface PriceChanges {
  /** When the price of `symbol` last changed, if it did. */
  changedAt(symbol: string): number | undefined;
}

/**
 * The board's announcements: a change of the selected symbol's price, politely, throttled (a
 * change made before this was there, or by another symbol selected since, is not announced).
 */
export class PriceAnnouncer extends Announcer {
  readonly #quotes: PriceChanges;
  /** The selected symbol, and its price change last announced (or known when it was selected). */
  #spoken: { symbol: string; at: number | undefined };

  /** `selected`: the chart symbol now. */
  constructor(host: ReactiveControllerHost, quotes: PriceChanges, selected: string) {
    super(host);
    this.#quotes = quotes;
    this.#spoken = { symbol: selected, at: quotes.changedAt(selected) };
  }

  /** A batch of quotes was applied; `symbol` is selected, and `row` gives its view now. */
  quotesApplied(symbol: string, row: () => RowView | undefined): void {
    const at = this.#quotes.changedAt(symbol);
    if (this.#spoken.symbol !== symbol) {
      this.#spoken = { symbol, at };
      return;
    }
    const view = at !== this.#spoken.at ? row() : undefined;
    if (!view) return;
    this.#spoken.at = at;
    this.announce(`${view.title}: ${view.spokenPrice}، تغییر ${view.change}`);
  }
}
