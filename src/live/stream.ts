/**
 * The live stream, kept alive: reconnects with capped exponential backoff and jitter (the
 * server's `retry:` as the base delay), resumes with `Last-Event-ID`, treats silence as a dead
 * connection (any bytes, heartbeat comments included, count as life), ignores unknown events, and
 * reports malformed event data once without dropping the connection. 401/403 end it for good.
 */
import { backoffDelay } from '../api/backoff';
import { endsStream, PriceBoardError } from '../shared/errors';
import { isObject, parseQuote, parseQuotes } from '../api/validate';
import type { FetchLike } from '../api/request';
import { startTimer } from '../api/timer';
import type { Quote } from '../shared/types';
import { clampWait } from '../shared/waits';
import { unknownSymbolsOf } from '../api/unknown-symbols';
import { absoluteUrl, symbolsQuery } from '../api/urls';
import { openSse } from './sse';

/** Silence after which a connection is presumed dead (three missed 15 s heartbeats). */
export const DEFAULT_WATCHDOG_MS = 45_000;
/** Base reconnect delay until the server sends `retry:`. */
export const DEFAULT_RECONNECT_MS = 1_000;
/** Upper bound of the reconnect delay. */
export const MAX_RECONNECT_MS = 30_000;
/**
 * An `id:` is kept (and sent back as `Last-Event-ID`) only when it is printable ASCII of at most
 * this length: a header cannot carry other characters (fetch throws before sending, so a
 * Persian-digit id failed every reconnect), and a proxy refuses an oversized header (a 1 MB id).
 */
export const MAX_EVENT_ID_CHARS = 256;
const USABLE_EVENT_ID = new RegExp(`^[\\x20-\\x7e]{1,${MAX_EVENT_ID_CHARS}}$`);

/** A new symbol reconnects this long after the change at the soonest, so that a burst of changes makes one connection. */
export const RESUBSCRIBE_MS = 250;
/** ... and this long after the connection it replaces was made (a page adding boards in a loop). */
export const MIN_RESUBSCRIBE_MS = 2_000;

/** Lower bound for a server `retry:`, so that `retry: 0` cannot make a tight loop (upper: {@link MAX_RECONNECT_MS}). */
const MIN_RECONNECT_MS = 100;

/** Where the stream is: first connect, open, waiting/trying again, or given up. */
export type StreamState = 'connecting' | 'open' | 'reconnecting' | 'stopped';

/** Facts about a failure, for the owner's decision to give up. */
export interface StreamFailure {
  /**
   * Consecutive connections that ended without delivering a single event, this one included (0
   * when this one had delivered events before it broke).
   */
  failures: number;
  /** Whether this connection had opened (2xx event stream) before it failed. */
  opened: boolean;
}

/**
 * A stream of quotes, whichever runs it: this tab's own ({@link LiveStream}) or one shared with the
 * other tabs (`shared-stream.ts`). It tells its owner what happens: {@link StreamEvent}s, to `onEvent`.
 */
export interface Stream {
  /** Connects (or joins the tabs); reconnects until closed or stopped. */
  start(): void;
  /** Changes the symbols: a new one reconnects, fewer wait for the next reconnect. */
  setSymbols(symbols: readonly string[]): void;
  /** Skips the current reconnect wait (e.g. the browser is back online). */
  reconnectNow(): void;
  /** Ends the connection and every timer; reports nothing more. */
  close(): void;
  /** Whether it stopped or was closed. */
  readonly closed: boolean;
  /** The id to resume from and the symbols it covers; undefined before any usable id. */
  readonly resumePoint: ResumePoint | undefined;
}

/** Options of a {@link Stream}: where, what, and what it tells its owner. */
export interface StreamOptions {
  /** Stream address; `?symbols=a,b` is appended. */
  url: string;
  symbols: readonly string[];
  apiKey?: string;
  fetch?: FetchLike;
  /** Default {@link DEFAULT_WATCHDOG_MS}. */
  watchdogMs?: number;
  /** Base reconnect delay until the server sends `retry:`; default {@link DEFAULT_RECONNECT_MS}. */
  initialRetryMs?: number;
  /** Cap of the reconnect delay; default {@link MAX_RECONNECT_MS}. */
  maxDelayMs?: number;
  /** Source of jitter (tests). */
  random?: () => number;
  /** After a non-final failure: return true to stop instead of reconnecting (the owner takes over). */
  giveUp?(error: PriceBoardError, failure: StreamFailure): boolean;
  /** Hears every {@link StreamEvent}, in order. */
  onEvent(event: StreamEvent): void;
  /** Where an earlier connection left off: another tab's, or the relay's render (its snapshot's event id). */
  resume?: ResumePoint;
}

/** What a stream tells its owner. */
export type StreamEvent =
  | { kind: 'state'; state: StreamState }
  /** Valid quotes of a `quote` or `quotes` event; `at` of a snapshot. */
  | { kind: 'quotes'; quotes: Quote[]; at?: string }
  /** A failure it will retry after, or (once per stream) malformed event data. */
  | { kind: 'failure'; error: PriceBoardError; failure: StreamFailure }
  /** The server rejected these ids (404 `unknown_symbol`); they are dropped and it reconnects. */
  | { kind: 'unknown'; symbols: string[] }
  /** It stopped for good: a final error (401/403/400), or `giveUp` said so (`gaveUp`). */
  | { kind: 'stopped'; error: PriceBoardError; gaveUp: boolean };

/** Options of {@link LiveStream}: a stream's, and where a stream before it left off. */
export interface LiveStreamOptions extends StreamOptions {
  /** Connections without an event that another tab made before this one took over: the first waits their backoff. */
  failures?: number;
}

/** The last event id and the symbols of the connection that sent it: what a resume covers. */
export interface ResumePoint {
  id: string;
  symbols: readonly string[];
}

interface Attempt {
  error?: PriceBoardError;
  opened: boolean;
  /** It delivered at least one valid event. */
  delivered: boolean;
  symbols: string[];
}

/** A reconnecting SSE subscription to quotes. */
export class LiveStream implements Stream {
  readonly #options: LiveStreamOptions;
  readonly #closer = new AbortController();
  #symbols: string[];
  /** Symbols of the connection open or being opened. */
  #attemptSymbols = new Set<string>();
  #connection: AbortController | undefined;
  #interruption: 'watchdog' | 'resubscribe' | undefined;
  /** When the current connection was made, and the pending reconnect for new symbols. */
  #connectedAt = 0;
  #cancelResubscribe: (() => void) | undefined;
  #wake: (() => void) | undefined;
  #lastId: string | undefined;
  /** Symbols of the connection that sent `lastId` (its own list, never changed): resuming covers only those. */
  #lastIdSymbols: readonly string[] = [];
  #baseDelayMs: number;
  /** Failed connections since the last valid event: the backoff's attempt number. */
  #failures = 0;
  /**
   * Connections in a row that ended in bad data (an event over the size limit): their backoff
   * keeps growing although each delivered a snapshot first, so a poison event cannot make a loop.
   */
  #badEnds = 0;
  /** Connections in a row that ended without a valid event: what the owner's give-up sees. */
  #eventless = 0;
  /** Valid events received so far (tells whether a connection delivered any). */
  #delivered = 0;
  #reportedBadData = false;
  #current: StreamState = 'connecting';
  #started = false;

  constructor(options: LiveStreamOptions) {
    this.#options = options;
    this.#symbols = [...options.symbols];
    this.#baseDelayMs = options.initialRetryMs ?? DEFAULT_RECONNECT_MS;
    this.#failures = this.#eventless = options.failures ?? 0;
    if (options.resume && USABLE_EVENT_ID.test(options.resume.id)) {
      this.#lastId = options.resume.id;
      this.#lastIdSymbols = options.resume.symbols;
    }
  }

  get resumePoint(): ResumePoint | undefined {
    return this.#lastId === undefined ? undefined : { id: this.#lastId, symbols: this.#lastIdSymbols };
  }

  /** The current state. */
  get state(): StreamState {
    return this.#current;
  }

  get closed(): boolean {
    return this.#closer.signal.aborted;
  }

  start(): void {
    if (this.#started || this.closed) return;
    this.#started = true;
    void this.#run();
  }

  /**
   * Changes the symbols. {@link RESUBSCRIBE_MS} later (or {@link MIN_RESUBSCRIBE_MS} after the
   * current connection was made, when that is later) it reconnects, with every change made
   * meanwhile, if a symbol is not covered by the connection then open; fewer symbols wait for the
   * next reconnect (extra quotes are harmless).
   */
  setSymbols(symbols: readonly string[]): void {
    this.#symbols = [...symbols];
    this.#cancelResubscribe ??= startTimer(
      () => {
        this.#cancelResubscribe = undefined;
        if (this.#connection && this.#symbols.some((s) => !this.#attemptSymbols.has(s))) {
          this.#interruption = 'resubscribe';
          this.#connection.abort();
        }
      },
      Math.max(RESUBSCRIBE_MS, this.#connectedAt + MIN_RESUBSCRIBE_MS - Date.now()),
    );
  }

  reconnectNow(): void {
    this.#failures = this.#eventless = 0;
    this.#wake?.();
  }

  close(): void {
    this.#closer.abort();
    this.#cancelResubscribe?.();
    this.#wake?.();
  }

  #setState(state: StreamState): void {
    if (state === this.#current) return;
    this.#current = state;
    this.#options.onEvent({ kind: 'state', state });
  }

  async #run(): Promise<void> {
    if (this.#failures) {
      // Another tab's connections failed before this one took over: it goes on from there.
      this.#setState('reconnecting');
      await this.#pause(this.#backoff());
    }
    while (!this.closed) {
      const attempt = await this.#connectOnce();
      if (this.closed) return;
      const { error } = attempt;
      if (!error) continue; // re-subscribing: connect again at once
      this.#failures++;
      // A connection that delivered events and then broke is not one "without a single event".
      this.#eventless = attempt.delivered ? 0 : this.#eventless + 1;
      this.#badEnds = error.code === 'bad_response' ? this.#badEnds + 1 : 0;
      const failure: StreamFailure = { failures: this.#eventless, opened: attempt.opened };
      if (this.#dropUnknown(error, attempt.symbols)) continue;
      if (endsStream(error)) return this.#stop(error, false);
      if (this.#options.giveUp?.(error, failure)) return this.#stop(error, true);
      this.#options.onEvent({ kind: 'failure', error, failure });
      if (this.closed) return; // the owner closed it while hearing of the failure
      this.#setState('reconnecting');
      await this.#pause(Math.max(this.#backoff(), error.retryAfterMs ?? 0));
    }
  }

  #backoff(): number {
    return backoffDelay(
      Math.max(this.#failures, this.#badEnds) - 1,
      { baseMs: this.#baseDelayMs, maxMs: this.#options.maxDelayMs ?? MAX_RECONNECT_MS },
      'equal',
      this.#options.random,
    );
  }

  /**
   * On a 404 `unknown_symbol` naming some of our ids: forget them, say so, and (when nothing is
   * left to stream) close quietly.
   */
  #dropUnknown(error: PriceBoardError, asked: string[]): boolean {
    const unknown = unknownSymbolsOf(error, asked);
    if (unknown.length === 0) return false;
    this.#symbols = this.#symbols.filter((s) => !unknown.includes(s));
    this.#options.onEvent({ kind: 'unknown', symbols: unknown });
    if (this.#symbols.length === 0) this.close();
    return true;
  }

  #stop(error: PriceBoardError, gaveUp: boolean): void {
    this.#closer.abort();
    this.#setState('stopped');
    this.#options.onEvent({ kind: 'stopped', error, gaveUp });
  }

  /** Waits `ms`, or less if woken or closed. */
  #pause(ms: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const cancel = startTimer(() => done(), ms);
      const done = (): void => {
        cancel();
        this.#wake = undefined;
        resolve();
      };
      this.#wake = done;
    });
  }

  async #connectOnce(): Promise<Attempt> {
    const connection = new AbortController();
    const symbols = [...this.#symbols];
    const attempt: Attempt = { opened: false, delivered: false, symbols };
    const deliveredBefore = this.#delivered;
    const watchdogMs = this.#options.watchdogMs ?? DEFAULT_WATCHDOG_MS;
    const onClose = (): void => connection.abort();
    this.#closer.signal.addEventListener('abort', onClose, { once: true });
    this.#connection = connection;
    this.#connectedAt = Date.now();
    this.#attemptSymbols = new Set(symbols);
    const covered = new Set(this.#lastIdSymbols);
    this.#interruption = undefined;
    const arm = (): (() => void) =>
      startTimer(() => {
        this.#interruption = 'watchdog';
        connection.abort();
      }, watchdogMs);
    let disarm = arm();
    try {
      await openSse({
        url: absoluteUrl(this.#options.url, symbolsQuery(symbols)).href,
        apiKey: this.#options.apiKey,
        fetch: this.#options.fetch,
        // Resuming replays only missed events; a new symbol needs the snapshot a fresh start sends.
        lastEventId: symbols.every((s) => covered.has(s)) ? this.#lastId : undefined,
        signal: connection.signal,
        onOpen: () => {
          attempt.opened = true;
          this.#setState('open');
        },
        onActivity: () => {
          disarm();
          disarm = arm();
        },
        onRetry: (ms) => {
          this.#baseDelayMs = clampWait(ms, MIN_RECONNECT_MS, MAX_RECONNECT_MS);
        },
        onEvent: (name, data, id) => {
          // The attempt's own list, not a copy: an event comes per quote.
          if (id !== undefined) this.#lastIdSymbols = symbols;
          this.#onEvent(name, data, id);
        },
      });
      attempt.error = new PriceBoardError('network', 'The stream ended');
    } catch (cause) {
      if (this.#interruption === 'watchdog') {
        attempt.error = new PriceBoardError('timeout', `The stream was silent for ${watchdogMs} ms`);
      } else if (this.#interruption !== 'resubscribe' && !this.closed) {
        attempt.error =
          cause instanceof PriceBoardError ? cause : new PriceBoardError('network', 'The stream failed', { cause });
      }
    } finally {
      disarm();
      this.#closer.signal.removeEventListener('abort', onClose);
      this.#connection = undefined;
    }
    attempt.delivered = this.#delivered > deliveredBefore;
    return attempt;
  }

  #onEvent(name: string, data: string, id: string | undefined): void {
    // As EventSource does: the last id seen persists across events without one. An id that
    // cannot be sent back is forgotten: the next connect gets a fresh snapshot instead.
    if (id !== undefined) this.#lastId = USABLE_EVENT_ID.test(id) ? id : undefined;
    if (!QUOTE_EVENTS.has(name)) return;
    let event: QuotesEvent;
    try {
      event = parseStreamEvent(name, data);
    } catch (error) {
      if (!this.#reportedBadData && error instanceof PriceBoardError) {
        this.#reportedBadData = true;
        this.#options.onEvent({ kind: 'failure', error, failure: { failures: this.#eventless, opened: true } });
      }
      return;
    }
    this.#failures = 0;
    this.#eventless = 0;
    this.#delivered++;
    this.#options.onEvent(event);
  }
}

type QuotesEvent = Extract<StreamEvent, { kind: 'quotes' }>;

/** The names the stream is known to send (DESIGN.md §4); any other event is ignored. */
const QUOTE_EVENTS: ReadonlySet<string> = new Set(['quote', 'quotes']);

/**
 * The payload of a `quote` (one Quote) or `quotes` (`{ at, quotes }`, a bare array tolerated)
 * event, validated all-or-nothing. Throws `bad_response` on malformed data.
 */
function parseStreamEvent(name: string, data: string): QuotesEvent {
  let body: unknown;
  try {
    body = JSON.parse(data);
  } catch (cause) {
    throw new PriceBoardError('bad_response', `The stream sent a ${name} event that is not JSON`, { cause });
  }
  if (name === 'quote') return { kind: 'quotes', quotes: [parseQuote(body, 'quote event')] };
  if (Array.isArray(body)) return { kind: 'quotes', quotes: parseQuotes(body, 'quotes event') };
  if (!isObject(body))
    throw new PriceBoardError('bad_response', 'The stream sent a quotes event that is not an object');
  const quotes = parseQuotes(body.quotes, 'quotes event.quotes');
  return { kind: 'quotes', quotes, at: typeof body.at === 'string' ? body.at : undefined };
}
