/**
 * One stream per browser, not per tab (DESIGN.md §12). The tabs of an origin that follow the same
 * connection (stream address, key, mode) elect a leader (`tab-leadership.ts`). Only the leader
 * opens the stream, for the union of every tab's symbols (followers announce theirs), and it
 * broadcasts over a `BroadcastChannel` what its stream tells it: quotes with their event id,
 * state, failures, unknown symbols, the end. Followers hand those to their own driver exactly as a
 * stream of their own would. When the leader goes (tab closed, hub closed, or silent: a frozen
 * tab) the lock passes to a follower, which opens the stream resuming by `Last-Event-ID` from the
 * last id it heard. Without Web Locks or BroadcastChannel, each tab has its own stream.
 */
import { PriceBoardError } from '../shared/errors';
import type { Quote } from '../shared/types';
import {
  LiveStream,
  type ResumePoint,
  type Stream,
  type StreamEvent,
  type StreamOptions,
  type StreamState,
} from './stream';
import { fromWire, toWire, type Message } from './tab-messages';
import { TabLeadership, type ChannelLike, type LeadershipEvent, type TabsEnv } from './tab-leadership';

// The chunk's one door: the name is asked for once the chunk is there (`shared-stream.ts`).
export { tabsName } from './tab-leadership';

/** Options of {@link TabStream}: a stream's, and where to meet the other tabs. */
export interface TabStreamOptions extends StreamOptions {
  /** The lock and channel name (`tabsName`). */
  name: string;
  env: TabsEnv;
  /** Default `LEADER_BEAT_MS`. */
  beatMs?: number;
  /** Default `SILENT_LEADER_MS`. */
  silentMs?: number;
}

/**
 * The stream of one hub, shared with the other tabs: the same surface and events as a
 * {@link LiveStream}, which it runs itself only while it leads.
 */
export class TabStream implements Stream {
  readonly #options: TabStreamOptions;
  readonly #leadership: TabLeadership;
  /** This tab's name among the others: 52 random bits. */
  readonly #id = Math.random().toString(36);
  #symbols: string[];
  #channel: ChannelLike | undefined;
  /**
   * Other tabs' symbols, by tab (the leader streams their union with its own). Every tab knows
   * every other: a tab that joins hears each follower's reply, so whichever leads next opens one
   * stream for them all at once.
   */
  readonly #peers = new Map<string, string[]>();
  /** The tab this one last heard lead: out of the union once this one leads (it went, or froze). */
  #leaderId: string | undefined;
  /** Symbols the service rejected: out of the union. */
  readonly #unknown = new Set<string>();
  /** The union the leader streams. */
  #asked = new Set<string>();
  /** The latest quote of each symbol, for a tab that joins after the snapshot. */
  readonly #latest = new Map<string, Quote>();
  #stream: LiveStream | undefined;
  #leading = false;
  #resume: ResumePoint | undefined;
  /** Connections in a row without an event, this tab's or its leader's: a new leader goes on from there. */
  #failed = 0;
  #state: StreamState = 'connecting';
  #started = false;
  #closed = false;
  /** Ends its page listeners. */
  readonly #listening = new AbortController();

  constructor(options: TabStreamOptions) {
    this.#options = options;
    this.#symbols = [...options.symbols];
    this.#resume = options.resume;
    this.#leadership = new TabLeadership({ ...options, locks: options.env.locks }, (event) =>
      this.#onLeadership(event),
    );
  }

  /** Whether it leads (runs the stream for every tab). */
  get leading(): boolean {
    return this.#leading;
  }

  get resumePoint(): ResumePoint | undefined {
    return this.#stream?.resumePoint ?? this.#resume;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Joins the other tabs: follows the leader, or leads when none does. */
  start(): void {
    if (this.#started || this.#closed) return;
    this.#started = true;
    // A page that goes away says so. One that goes into the back/forward cache runs nothing more:
    // it leaves the others (its lock, its place in the line and its channel, whose messages would
    // evict it from the cache) and joins them again when it comes back.
    const listening = { signal: this.#listening.signal };
    globalThis.addEventListener?.(
      'pagehide',
      (event) => {
        this.#post({ t: 'bye', from: this.#id });
        if (event.persisted) this.#part();
      },
      listening,
    );
    globalThis.addEventListener?.('pageshow', (event) => event.persisted && this.#join(), listening);
    this.#join();
  }

  #join(): void {
    try {
      this.#channel = this.#options.env.channel(this.#options.name);
    } catch {
      return this.#alone();
    }
    this.#channel.onmessage = (event) => this.#onMessage(event.data as Message);
    this.#post({ t: 'hello', from: this.#id, symbols: this.#symbols });
    this.#leadership.join();
  }

  #onLeadership(event: LeadershipEvent): void {
    if (this.#closed) return;
    if (event === 'lead') this.#lead();
    else if (event === 'lost') this.#demote();
    else if (event === 'alone') this.#alone();
    else this.#beat();
  }

  /** Changes this tab's symbols: the leader's stream follows the new union. */
  setSymbols(symbols: readonly string[]): void {
    this.#symbols = [...symbols];
    if (this.#closed || !this.#started) return;
    if (this.#leading) this.#follow();
    else this.#post({ t: 'hello', from: this.#id, symbols: this.#symbols });
  }

  /** Skips the leader's reconnect wait. */
  reconnectNow(): void {
    if (this.#closed) return;
    // Back online (every tab hears it): whichever tab leads next connects at once.
    this.#failed = 0;
    if (this.#leading) this.#stream?.reconnectNow();
    else this.#post({ t: 'kick', from: this.#id });
  }

  /** Leaves: a leader's lock passes to another tab; reports nothing more. */
  close(): void {
    if (this.#closed) return;
    this.#post({ t: 'bye', from: this.#id });
    this.#leave();
  }

  #leave(): void {
    this.#closed = true;
    this.#listening.abort();
    this.#part();
  }

  /** Out of the others' sight: no timer, no lock asked for, no stream, no channel. */
  #part(): void {
    this.#leadership.leave();
    this.#stream?.close();
    this.#stream = undefined;
    this.#closeChannel();
    this.#leading = false;
  }

  #closeChannel(): void {
    if (this.#channel) {
      this.#channel.onmessage = null;
      this.#channel.close();
      this.#channel = undefined;
    }
    this.#peers.clear();
  }

  #post(message: Message): void {
    try {
      this.#channel?.postMessage(message);
    } catch {
      // A message that cannot be cloned or a closed channel: the others hear the next one.
    }
  }

  #lead(): void {
    this.#leading = true;
    // A leader that froze says hello again when it wakes.
    if (this.#leaderId !== undefined) this.#peers.delete(this.#leaderId);
    this.#post({ t: 'lead', from: this.#id });
    this.#follow();
    this.#beat();
  }

  /** Lost the lock to a tab that found this one silent, or hands it on (`TabLeadership.handOn`): follows again. */
  #demote(): void {
    this.#leading = false;
    this.#stream?.close();
    this.#stream = undefined;
    this.#post({ t: 'hello', from: this.#id, symbols: this.#symbols });
    this.#leadership.handOn();
  }

  /** Without locks or channel: a stream of its own, as every tab had before. */
  #alone(): void {
    if (this.#closed) return;
    this.#leadership.leave();
    this.#closeChannel();
    this.#leading = true;
    this.#follow();
  }

  #union(): string[] {
    const all = new Set(this.#symbols);
    for (const symbols of this.#peers.values()) for (const s of symbols) all.add(s);
    for (const s of this.#unknown) all.delete(s);
    return [...all];
  }

  /** The leader's stream follows the union (opened first, or reopened when the union had emptied it). */
  #follow(): void {
    if (this.#closed) return;
    const symbols = this.#union();
    this.#asked = new Set(symbols);
    for (const symbol of this.#latest.keys()) if (!this.#asked.has(symbol)) this.#latest.delete(symbol);
    if (this.#stream && !this.#stream.closed) return this.#stream.setSymbols(symbols);
    if (symbols.length === 0) return;
    const stream: LiveStream = new LiveStream({
      ...this.#options,
      symbols,
      resume: this.resumePoint,
      failures: this.#failed,
      onEvent: (event) => this.#heard(stream, event),
    });
    this.#stream = stream;
    stream.start();
  }

  /** What the leader's stream tells: to this tab's driver, and to the other tabs. */
  #heard(stream: LiveStream, event: StreamEvent): void {
    switch (event.kind) {
      case 'state':
        if (event.state === 'stopped') return;
        this.#setState(event.state);
        return this.#post({ t: 'beat', from: this.#id, state: event.state, resume: stream.resumePoint });
      case 'quotes': {
        const resume = (this.#resume = stream.resumePoint);
        this.#failed = 0;
        // Quotes of symbols no tab asked for are neither kept nor passed on (a hostile flood).
        const asked = event.quotes.filter((quote) => this.#asked.has(quote.symbol));
        if (asked.length === 0) return;
        for (const quote of asked) this.#latest.set(quote.symbol, quote);
        // Alone, it posts none (a tab that joins gets the latest ones when it says hello).
        if (this.#peers.size > 0) this.#post({ t: 'quotes', from: this.#id, quotes: asked, at: event.at, resume });
        return this.#deliver(asked, event.at);
      }
      case 'unknown':
        for (const s of event.symbols) {
          this.#unknown.add(s);
          this.#asked.delete(s);
        }
        this.#post({ t: 'unknown', from: this.#id, symbols: event.symbols });
        return this.#dropUnknown(event.symbols);
      case 'stopped':
        this.#resume = stream.resumePoint;
        this.#post({ t: 'stop', from: this.#id, error: toWire(event.error), gaveUp: event.gaveUp });
        return this.#stop(event.error, event.gaveUp);
      case 'failure':
        this.#failed = event.failure.failures;
        this.#post({ t: 'error', from: this.#id, error: toWire(event.error), failure: event.failure });
        this.#options.onEvent(event);
        // No answer at all (this page's network, its CSP, a blocker): another tab, if any, may connect.
        if (!event.failure.opened && event.error.status === undefined && this.#peers.size > 0) this.#demote();
    }
  }

  #beat(): void {
    this.#post({ t: 'beat', from: this.#id, state: this.#state, resume: this.resumePoint });
  }

  #onMessage(message: Message): void {
    if (this.#closed || typeof message !== 'object' || message === null) return;
    switch (message.t) {
      case 'hello':
        this.#peers.set(message.from, message.symbols);
        // A leader that says hello follows now (it handed the lock on): no longer one that went.
        if (message.from === this.#leaderId) this.#leaderId = undefined;
        if (!this.#leading && !message.reply)
          this.#post({ t: 'hello', from: this.#id, symbols: this.#symbols, reply: true });
        if (this.#leading) {
          this.#beat(); // the newcomer learns the state now, not at the next beat
          this.#follow();
          const known = message.symbols.flatMap((s) => this.#latest.get(s) ?? []);
          if (known.length > 0) this.#post({ t: 'quotes', from: this.#id, to: message.from, quotes: known });
        }
        return;
      case 'bye':
        this.#peers.delete(message.from);
        if (this.#leading) this.#follow();
        return;
      case 'kick':
        if (this.#leading) this.#stream?.reconnectNow();
        return;
    }
    // The rest comes from a leader; a tab that leads itself ignores another's (the lock sorts it out).
    if (this.#leading) return;
    this.#leadership.heard();
    if (message.from !== this.#leaderId) {
      // The first word of a leader (its 'lead', or any later one when that was missed, say by a
      // frozen page): it learns this tab's symbols now (the other followers know them: no
      // replies). A leader posts quotes only while other tabs are there.
      this.#leaderId = message.from;
      this.#post({ t: 'hello', from: this.#id, symbols: this.#symbols, reply: true });
    }
    switch (message.t) {
      case 'beat':
        if (message.resume) this.#resume = message.resume;
        this.#setState(message.state);
        return;
      case 'quotes':
        if (message.to !== undefined && message.to !== this.#id) return;
        if (message.resume) this.#resume = message.resume;
        this.#failed = 0;
        this.#deliver(message.quotes, message.at);
        return;
      case 'error': {
        this.#failed = message.failure.failures;
        const error = fromWire(message.error);
        if (this.#options.giveUp?.(error, message.failure)) {
          this.#post({ t: 'bye', from: this.#id });
          return this.#stop(error, true);
        }
        this.#options.onEvent({ kind: 'failure', error, failure: message.failure });
        return;
      }
      case 'unknown':
        this.#dropUnknown(message.symbols);
        return;
      case 'stop':
        this.#post({ t: 'bye', from: this.#id });
        this.#stop(fromWire(message.error), message.gaveUp);
        return;
    }
  }

  #setState(state: StreamState): void {
    if (state === this.#state) return;
    this.#state = state;
    this.#options.onEvent({ kind: 'state', state });
  }

  /** Quotes of this tab's symbols, to its own driver. */
  #deliver(quotes: Quote[], at: string | undefined): void {
    const wanted = quotes.filter((quote) => this.#symbols.includes(quote.symbol));
    if (wanted.length > 0) this.#options.onEvent({ kind: 'quotes', quotes: wanted, at });
  }

  #dropUnknown(symbols: string[]): void {
    const dropped = symbols.filter((s) => this.#symbols.includes(s));
    if (dropped.length === 0) return;
    this.#symbols = this.#symbols.filter((s) => !dropped.includes(s));
    this.#options.onEvent({ kind: 'unknown', symbols: dropped });
  }

  /** The stream stopped for good (a final error, or `giveUp`): everything ends here. */
  #stop(error: PriceBoardError, gaveUp: boolean): void {
    if (this.#closed) return;
    this.#leadership.letGo();
    this.#leave();
    this.#setState('stopped');
    this.#options.onEvent({ kind: 'stopped', error, gaveUp });
  }
}
