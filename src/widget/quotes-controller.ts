/**
 * A widget's quotes as a Lit ReactiveController: one hub subscription while the widget is
 * connected, re-pointed (`setSymbols`) when the symbols change and re-created only when the
 * connection (`connectionOf`) or the poll interval changes. The quotes are the hub's (read through
 * the subscription); the controller keeps only its own: the batch to render and the price
 * changes. A row's first quote is shown at once (the render follows in a microtask); after that,
 * applied quotes are batched: one render and one `onQuotes` per frame, in a task posted from the
 * frame's callback, so that the batch's script and the browser's rendering of a frame are never
 * one long task (the next frame paints what the task wrote).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { PriceBoardError } from '../shared/errors';
import type { ConnectionStatus, Quote } from '../shared/types';
import { connectionOf } from '../live/connection';
import {
  startFrom,
  subscribe,
  type HeldSnapshot,
  type HubEvent,
  type HubOptions,
  type Subscription,
} from '../live/hub';

/** What the controller tells its widget, as typed events to one listener. */
export type QuotesEvent =
  /** A batch of applied quotes (one per symbol, the latest), at most once per animation frame. */
  | { kind: 'quotes'; quotes: Quote[] }
  | { kind: 'status'; status: ConnectionStatus }
  | { kind: 'error'; error: PriceBoardError };

/** A hidden page runs no animation frames; events still go out, just less often. */
const HIDDEN_FLUSH_MS = 250;

/** Equal for options one subscription serves: the hub's connection, and the subscriber's poll interval. */
const subscriptionKey = (o: HubOptions): string => `${connectionOf(o).key} ${o.pollInterval}`;

export class QuotesController implements ReactiveController {
  status: ConnectionStatus = 'loading';
  /** `delay_seconds` of the latest prices response. */
  delaySeconds = 0;
  /** The failure shown in `part="error"`, if any (never a configuration mistake: see {@link unknown}). */
  error: PriceBoardError | undefined;
  /** Requested symbols the service did not return. */
  readonly missing = new Set<string>();
  /** Requested symbols the service does not know (`unknown_symbol`): the widget goes on without them. */
  readonly unknown = new Set<string>();
  /**
   * The quotes shown are the relay's render's, not yet followed live (`hub.ts` `startFrom`): the
   * board's status line says when they were read until the stream is open or the service answers.
   */
  held = false;

  /** Per symbol: the price last received, and when it last changed while shown (`performance.now()`). */
  readonly #prices = new Map<string, { price: string; changedAt?: number }>();
  readonly #pending = new Map<string, Quote>();
  #frame = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #options: HubOptions | undefined;
  #symbols: string[] = [];
  #subscription: Subscription | undefined;
  #subscriptionKey = '';
  /** Bumped per subscription, so that a closed one's late callbacks are ignored. */
  #generation = 0;
  #connected = false;

  readonly #host: ReactiveControllerHost;
  readonly #listener: (event: QuotesEvent) => void;

  constructor(host: ReactiveControllerHost, listener: (event: QuotesEvent) => void) {
    this.#host = host;
    this.#listener = listener;
    host.addController(this);
  }

  /** Takes the board's settings: re-subscribes only when the connection settings changed. */
  configure(options: HubOptions, symbols: readonly string[]): void {
    const symbolsChanged = symbols.length !== this.#symbols.length || symbols.some((s, i) => s !== this.#symbols[i]);
    this.#options = options;
    this.#symbols = [...symbols];
    if (!this.#connected) return;
    if (!this.#subscription || subscriptionKey(options) !== this.#subscriptionKey) this.#open();
    else if (symbolsChanged) {
      for (const s of this.missing) if (!symbols.includes(s)) this.missing.delete(s);
      this.#subscription.setSymbols([...symbols]);
    }
  }

  /** The latest quote of `symbol`, if any arrived; until a subscription opens, the snapshot's (the relay renders from it). */
  get(symbol: string): Quote | undefined {
    return this.#subscription
      ? this.#subscription.get(symbol)
      : this.#startFrom?.quotes.find((quote) => quote.symbol === symbol);
  }

  /** The relay's snapshot, handed to the hub at the next subscription. */
  #startFrom: HeldSnapshot | undefined;

  /**
   * The page shows the relay's render of these quotes: the hub starts from them (`hub.ts`
   * `startFrom`). The relay's renderer gives the element its quotes so too (it is never connected).
   */
  startFrom(snapshot: HeldSnapshot): void {
    this.#startFrom = snapshot;
  }

  /** When the price of `symbol` last changed while shown (`performance.now()`): the flash and the announcer follow it. */
  changedAt(symbol: string): number | undefined {
    return this.#prices.get(symbol)?.changedAt;
  }

  /** The quotes of the board's symbols, in board order. */
  snapshot(): ReadonlyMap<string, Quote> {
    const out = new Map<string, Quote>();
    for (const s of this.#symbols) {
      const q = this.get(s);
      if (q) out.set(s, q);
    }
    return out;
  }

  refresh(): Promise<void> {
    return this.#subscription?.refresh() ?? Promise.resolve();
  }

  hostConnected(): void {
    this.#connected = true;
    if (this.#options) this.#open();
  }

  hostDisconnected(): void {
    this.#connected = false;
    this.#generation++;
    this.#subscription?.close();
    this.#subscription = undefined;
    this.#subscriptionKey = '';
    this.#cancelFlush();
    this.#pending.clear();
  }

  #open(): void {
    const options = this.#options!;
    this.#subscription?.close();
    const generation = ++this.#generation;
    this.#subscriptionKey = subscriptionKey(options);
    this.error = undefined;
    this.missing.clear();
    this.unknown.clear();
    const held = this.#startFrom;
    this.#startFrom = undefined;
    this.held = !!held;
    // Over the relay's render the prices are shown: never `loading` (the hub says `live` too).
    this.#setStatus(held ? 'live' : 'loading');
    if (held) startFrom(options, held);
    this.#subscription = subscribe(options, [...this.#symbols], (event) => {
      if (generation === this.#generation) this.#hear(event);
    });
  }

  /** What the hub reports of the current subscription. */
  #hear(event: HubEvent): void {
    switch (event.kind) {
      case 'quotes':
        if (typeof event.meta?.delaySeconds === 'number') this.delaySeconds = event.meta.delaySeconds;
        return this.#receive(event.quotes);
      case 'status':
        this.held = event.held;
        this.#host.requestUpdate();
        return this.#setStatus(event.status);
      case 'error':
        // A configuration mistake is the developer's (the event), never a visitor's message.
        if (event.error.for === 'setup') for (const s of event.error.symbols) this.unknown.add(s);
        else this.error = event.error;
        this.#host.requestUpdate();
        return this.#listener(event);
      case 'recovered':
        if (!this.error || this.error.final) return;
        this.error = undefined;
        return this.#host.requestUpdate();
      case 'missing':
        // The hub sends the full current list each time.
        this.missing.clear();
        for (const s of event.symbols) if (this.#symbols.includes(s)) this.missing.add(s);
        return this.#host.requestUpdate();
    }
  }

  #receive(quotes: readonly Quote[]): void {
    let firstOfARow = false;
    for (const q of quotes) {
      const before = this.#prices.get(q.symbol);
      if (!before) firstOfARow = true;
      const changed = before !== undefined && before.price !== q.price;
      this.#prices.set(q.symbol, { price: q.price, changedAt: changed ? performance.now() : before?.changedAt });
      this.missing.delete(q.symbol);
      this.#pending.set(q.symbol, q);
    }
    if (quotes.length > 0 && this.error && !this.error.final) this.error = undefined;
    if (this.#scheduled() || this.#pending.size === 0) return;
    // A row still without a price (the first snapshot, or symbols just added) is not kept waiting
    // for a frame: the batch goes out now and Lit renders it in a microtask.
    if (firstOfARow) this.#flush();
    // Otherwise, and for what arrives after that, the batch goes out in a task that the next
    // frame's callback posts in place of the hidden page's timer (one timer to cancel): after the
    // frame that paints the last batch, and apart from the browser's style, layout and paint of
    // the frame that shows it.
    this.#frame = requestAnimationFrame(() => {
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => this.#flush());
    });
    this.#timer = setTimeout(() => this.#flush(), HIDDEN_FLUSH_MS);
  }

  #scheduled(): boolean {
    return this.#frame !== 0 || this.#timer !== undefined;
  }

  #cancelFlush(): void {
    if (this.#frame) cancelAnimationFrame(this.#frame);
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#frame = 0;
    this.#timer = undefined;
  }

  #flush(): void {
    this.#cancelFlush();
    if (this.#pending.size === 0) return;
    const batch = [...this.#pending.values()];
    this.#pending.clear();
    this.#host.requestUpdate();
    this.#listener({ kind: 'quotes', quotes: batch });
  }

  #setStatus(status: ConnectionStatus): void {
    if (status === this.status) return;
    this.status = status;
    this.#host.requestUpdate();
    this.#listener({ kind: 'status', status });
  }
}
