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
export interface ChangeCounts {
  changeCount(symbol: string): number;
}

/**
 * The board's announcements: a change of the selected symbol's price, politely, throttled (a
 * change made before this was there, or by another symbol selected since, is not announced).
 */
export class PriceAnnouncer extends Announcer {
  readonly #quotes: ChangeCounts;
  /** Price changes of the selected symbol already announced. */
  #spoken: { symbol: string; changes: number };

  /** `selected`: the chart symbol now. */
  constructor(host: ReactiveControllerHost, quotes: ChangeCounts, selected: string) {
    super(host);
    this.#quotes = quotes;
    this.#spoken = { symbol: selected, changes: quotes.changeCount(selected) };
  }

  /** A batch of quotes was applied; `symbol` is selected, and `row` gives its view now. */
  quotesApplied(symbol: string, row: () => RowView | undefined): void {
    const changes = this.#quotes.changeCount(symbol);
    if (this.#spoken.symbol !== symbol) {
      this.#spoken = { symbol, changes };
      return;
    }
    const view = changes > this.#spoken.changes ? row() : undefined;
    if (!view) return;
    this.#spoken.changes = changes;
    this.announce(`${view.title}: ${view.spokenPrice}، تغییر ${view.change}`);
  }
}
