/**
 * One stream per browser, not per tab (DESIGN.md §12). The tabs of an origin that follow the same
 * connection (stream address, key, mode) elect a leader with a Web Lock held while it leads. Only
 * the leader opens the stream, for the union of every tab's symbols (followers announce theirs),
 * and it broadcasts over a `BroadcastChannel` what its stream tells it: quotes with their event
 * id, state, failures, unknown symbols, the end. Followers hand those to their own transport
 * exactly as a stream of their own would. When the leader goes (tab closed, hub closed) the lock
 * passes to a follower, which opens the stream resuming by `Last-Event-ID` from the last id it
 * heard; a follower that hears nothing from its leader for {@link SILENT_LEADER_MS} takes the lock
 * away from it (a frozen tab). Without Web Locks or BroadcastChannel, each tab has its own stream.
 */
import { PriceBoardError, type ErrorCode } from '../shared/errors';
import { startTimer } from '../api/timer';
import type { Quote } from '../shared/types';
import { LiveStream, type LiveStreamOptions, type ResumePoint, type StreamFailure, type StreamState } from './stream';

/** How often a leader says it is alive. */
export const LEADER_BEAT_MS = 1_000;
/** Silence of a leader after which a follower takes the lead from it. */
export const SILENT_LEADER_MS = 6_000;
/** A leader whose stream stopped, or that hands the lead on, keeps the lock this long, so followers hear why before one leads. */
const STOP_LINGER_MS = 500;

/** The part of `navigator.locks` used here. */
export interface LockManagerLike {
  request(
    name: string,
    options: { signal?: AbortSignal; steal?: boolean },
    callback: (lock: unknown) => Promise<void>,
  ): Promise<unknown>;
}

/** The part of a `BroadcastChannel` used here. */
export interface ChannelLike {
  onmessage: ((event: MessageEvent) => void) | null;
  postMessage(message: unknown): void;
  close(): void;
}

/** Where the locks and channels come from (the browser's, or a test's). */
export interface TabsEnv {
  locks: LockManagerLike;
  channel(name: string): ChannelLike;
}

/** What tells connections apart. The key is hashed: a name never carries it. */
export interface TabsScope {
  streamUrl: string;
  apiKey?: string;
  mode: string;
}

/** The lock and channel name of a connection (the stream address as the widgets give it: absolute). */
export function tabsName(scope: TabsScope): string {
  const key = scope.apiKey === undefined ? '-' : hashText(scope.apiKey);
  return `price-board/stream/1 ${scope.mode} ${key} ${scope.streamUrl}`;
}

/**
 * A 32-bit FNV-1a digest in hex: tells keys apart in a name without carrying them (two keys of one
 * service on one site would share tabs by mistake once in 4 billion pairs).
 */
function hashText(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16);
}

/** A `PriceBoardError` as it crosses the channel (a structured clone loses its class). */
interface WireError {
  code: ErrorCode;
  message: string;
  messageFa: string;
  status?: number;
  retryAfterMs?: number;
  data?: Record<string, unknown>;
}

type Message =
  | { t: 'hello'; from: string; symbols: string[]; reply?: true }
  | { t: 'bye'; from: string }
  | { t: 'kick'; from: string }
  | { t: 'lead'; from: string }
  | { t: 'beat'; from: string; state: StreamState; resume?: ResumePoint }
  | { t: 'quotes'; from: string; to?: string; quotes: Quote[]; at?: string; resume?: ResumePoint }
  | { t: 'error'; from: string; error: WireError; failure: StreamFailure }
  | { t: 'unknown'; from: string; symbols: string[] }
  | { t: 'stop'; from: string; error: WireError; gaveUp: boolean };

function toWire(error: PriceBoardError): WireError {
  // Its own fields (code, status, retryAfterMs, data), and the two an Error keeps elsewhere.
  return { ...error, message: error.message, messageFa: error.messageFa };
}

function fromWire(wire: WireError): PriceBoardError {
  return new PriceBoardError(wire.code, wire.message, wire);
}

/** Options of {@link TabStream}: a {@link LiveStream}'s, and where to meet the other tabs. */
export interface TabStreamOptions extends LiveStreamOptions {
  /** The lock and channel name ({@link tabsName}). */
  name: string;
  env: TabsEnv;
  /** Default {@link LEADER_BEAT_MS}. */
  beatMs?: number;
  /** Default {@link SILENT_LEADER_MS}. */
  silentMs?: number;
}

/**
 * The stream of one hub, shared with the other tabs: the same surface and callbacks as a
 * {@link LiveStream}, which it runs itself only while it leads.
 */
export class TabStream {
  readonly #options: TabStreamOptions;
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
  /** Ends the lock's hold. */
  #release: (() => void) | undefined;
  /** Cancels a queued lock request. */
  #pending: AbortController | undefined;
  /** The request whose lock this tab holds. */
  #holding: AbortController | undefined;
  #resume: ResumePoint | undefined;
  /** Connections in a row without an event, this tab's or its leader's: a new leader goes on from there. */
  #failed = 0;
  #state: StreamState = 'connecting';
  #heardAt = 0;
  #cancelTimer: (() => void) | undefined;
  #started = false;
  #closed = false;
  /** Ends its page listeners. */
  readonly #listening = new AbortController();

  constructor(options: TabStreamOptions) {
    this.#options = options;
    this.#symbols = [...options.symbols];
  }

  /** Whether it leads (runs the stream for every tab). */
  get leading(): boolean {
    return this.#leading;
  }

  /** The id and symbols a takeover would resume from. */
  get resumePoint(): ResumePoint | undefined {
    return this.#stream?.resumePoint ?? this.#resume;
  }

  /** Whether it stopped or was closed. */
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
    this.#heardAt = Date.now();
    this.#tick();
    this.#queue(false);
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
    this.#cancelTimer?.();
    this.#pending?.abort();
    this.#pending = undefined;
    this.#stream?.close();
    this.#stream = undefined;
    this.#closeChannel();
    this.#leading = false;
    this.#release?.();
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

  /** Asks for the lock (`steal`: take it from a silent leader). */
  #queue(steal: boolean): void {
    const pending = new AbortController();
    this.#pending = pending;
    let granted = false;
    const held = (): Promise<void> => {
      granted = true;
      if (this.#closed || this.#pending !== pending) return Promise.resolve();
      return new Promise((resolve) => {
        this.#release = resolve;
        this.#holding = pending;
        this.#lead();
      });
    };
    let request: Promise<unknown>;
    try {
      request = this.#options.env.locks.request(
        this.#options.name,
        steal ? { steal: true } : { signal: pending.signal },
        held,
      );
    } catch {
      return this.#alone();
    }
    request.then(
      () => {},
      () => {
        if (this.#closed) return;
        if (granted) {
          // Another tab took the lock from this one (it found this one silent).
          if (this.#holding === pending) this.#demote();
        } else if (this.#pending === pending) this.#alone(); // the lock manager refuses (an opaque origin, say)
      },
    );
  }

  #lead(): void {
    this.#pending = undefined;
    this.#leading = true;
    // A leader that froze says hello again when it wakes.
    if (this.#leaderId !== undefined) this.#peers.delete(this.#leaderId);
    this.#post({ t: 'lead', from: this.#id });
    this.#follow();
    this.#beat();
  }

  /**
   * Lost the lock to a tab that found this one silent, or hands it on (its connection fails where
   * another tab's may not): follow again, last in the line for the lock.
   */
  #demote(): void {
    this.#holding = undefined;
    this.#leading = false;
    this.#stream?.close();
    this.#stream = undefined;
    this.#heardAt = Date.now();
    this.#post({ t: 'hello', from: this.#id, symbols: this.#symbols });
    this.#letGo();
    this.#queue(false);
  }

  /** Gives the lock up a moment later, so that the tab that leads next has heard why this one stopped. */
  #letGo(): void {
    const release = this.#release;
    this.#release = undefined;
    if (release) startTimer(release, STOP_LINGER_MS);
  }

  /** Without locks or channel: a stream of its own, as every tab had before. */
  #alone(): void {
    if (this.#closed) return;
    this.#cancelTimer?.();
    this.#pending = undefined;
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
      onState: (state) => {
        if (state === 'stopped') return;
        this.#setState(state);
        this.#post({ t: 'beat', from: this.#id, state, resume: stream.resumePoint });
      },
      onQuotes: (quotes, at) => {
        const resume = stream.resumePoint;
        this.#resume = resume;
        this.#failed = 0;
        // Quotes of symbols no tab asked for are neither kept nor passed on (a hostile flood).
        const asked = quotes.filter((quote) => this.#asked.has(quote.symbol));
        if (asked.length === 0) return;
        for (const quote of asked) this.#latest.set(quote.symbol, quote);
        // Alone, it posts none (a tab that joins gets the latest ones when it says hello).
        if (this.#peers.size > 0) this.#post({ t: 'quotes', from: this.#id, quotes: asked, at, resume });
        this.#deliver(asked, at);
      },
      onError: (error, failure) => {
        this.#failed = failure.failures;
        this.#post({ t: 'error', from: this.#id, error: toWire(error), failure });
        this.#options.onError?.(error, failure);
        // No answer at all (this page's network, its CSP, a blocker): another tab may connect.
        if (!failure.opened && error.status === undefined && this.#peers.size > 0 && this.#holding) this.#demote();
      },
      onUnknownSymbols: (symbols) => {
        for (const s of symbols) {
          this.#unknown.add(s);
          this.#asked.delete(s);
        }
        this.#post({ t: 'unknown', from: this.#id, symbols });
        this.#dropUnknown(symbols);
      },
      onStop: (error, gaveUp) => {
        this.#resume = stream.resumePoint;
        this.#post({ t: 'stop', from: this.#id, error: toWire(error), gaveUp });
        this.#stop(error, gaveUp);
      },
    });
    this.#stream = stream;
    stream.start();
  }

  /** Every beat: a leader says it is alive; a follower checks that its leader does. */
  #tick(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = startTimer(() => {
      if (this.#closed || !this.#channel) return;
      if (this.#leading) this.#beat();
      // Followers do not all give up on the leader at the same moment.
      else if (Date.now() - this.#heardAt > (this.#options.silentMs ?? SILENT_LEADER_MS) * (1 + Math.random() / 2)) {
        this.#heardAt = Date.now();
        this.#pending?.abort();
        this.#queue(true);
      }
      this.#tick();
    }, this.#options.beatMs ?? LEADER_BEAT_MS);
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
    this.#heardAt = Date.now();
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
        this.#options.onError?.(error, message.failure);
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
    this.#options.onState?.(state);
  }

  /** Quotes of this tab's symbols, to its own transport. */
  #deliver(quotes: Quote[], at: string | undefined): void {
    const wanted = quotes.filter((quote) => this.#symbols.includes(quote.symbol));
    if (wanted.length > 0) this.#options.onQuotes(wanted, at);
  }

  #dropUnknown(symbols: string[]): void {
    const dropped = symbols.filter((s) => this.#symbols.includes(s));
    if (dropped.length === 0) return;
    this.#symbols = this.#symbols.filter((s) => !dropped.includes(s));
    this.#options.onUnknownSymbols?.(dropped);
  }

  /** The stream stopped for good (a final error, or `giveUp`): everything ends here. */
  #stop(error: PriceBoardError, gaveUp: boolean): void {
    if (this.#closed) return;
    this.#letGo();
    this.#leave();
    this.#setState('stopped');
    this.#options.onStop?.(error, gaveUp);
  }
}
