/**
 * Polling: one poll every interval (never under `MIN_POLL_MS` of policy.ts), never before a
 * `Retry-After` has passed, paused while the page is hidden, and once at once when it shows again.
 */
import { endsRetries, type PriceBoardError } from '../shared/errors';
import { startTimer } from '../api/timer';
import { asPriceBoardError, clampPollMs } from './policy';
import { RateLimit } from './rate-limit';
import { documentVisibility, type VisibilitySource } from './visibility';

/** Options of {@link Poller}. */
export interface PollerOptions {
  /** Clamped by {@link clampPollMs}. */
  intervalMs: number;
  /** One poll; rejects with a `PriceBoardError`. */
  poll(signal: AbortSignal): Promise<void>;
  /** Default the document's (`documentVisibility()`: in Node, always visible). */
  visibility?: VisibilitySource;
  /** The `Retry-After` in force, shared with whoever else asks the service (default: its own). */
  rateLimit?: RateLimit;
  /** Hears every {@link PollerEvent}. */
  onEvent?(event: PollerEvent): void;
  now?(): number;
}

/** What a poller tells its owner: a failure it will poll again after, or a final one (401, 403...) that stopped it. */
export type PollerEvent = { kind: 'failure' | 'stopped'; error: PriceBoardError };

/** Polls until stopped. */
export class Poller {
  readonly #options: PollerOptions;
  readonly #controller = new AbortController();
  readonly #visibility: VisibilitySource;
  readonly #now: () => number;
  #intervalMs: number;
  #cancelTimer: (() => void) | undefined;
  #inFlight: Promise<void> | undefined;
  readonly #rateLimit: RateLimit;
  #unwatch: (() => void) | undefined;

  constructor(options: PollerOptions) {
    this.#options = options;
    this.#intervalMs = clampPollMs(options.intervalMs);
    this.#visibility = options.visibility ?? documentVisibility();
    this.#now = options.now ?? Date.now;
    this.#rateLimit = options.rateLimit ?? new RateLimit(this.#now);
  }

  /** The interval in use (clamped). */
  get interval(): number {
    return this.#intervalMs;
  }

  /** Whether it was stopped. */
  get stopped(): boolean {
    return this.#controller.signal.aborted;
  }

  /** Starts polling; the first poll after `firstDelayMs` (0: at once). */
  start(firstDelayMs = 0): void {
    if (this.#unwatch || this.stopped) return;
    this.#unwatch = this.#visibility.subscribe((visible) => this.#onVisibility(visible));
    this.#schedule(firstDelayMs);
  }

  /** Changes the interval; the poll already scheduled keeps its time. */
  setInterval(ms: number): void {
    this.#intervalMs = clampPollMs(ms);
  }

  /** Polls now (sharing a poll in flight) unless a `Retry-After` forbids it; then on schedule. */
  pollNow(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return this.#inFlight ?? this.#tick();
  }

  /** Stops polling: cancels the timer and a poll in flight. */
  stop(): void {
    this.#controller.abort();
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
    this.#unwatch?.();
  }

  #gate(): number {
    return this.#rateLimit.until;
  }

  #schedule(delayMs: number): void {
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
    // Hidden: no timer at all; showing the page again polls (see onVisibility).
    if (this.stopped || !this.#visibility.isVisible()) return;
    const wait = Math.max(delayMs, this.#gate() - this.#now());
    this.#cancelTimer = startTimer(() => {
      this.#cancelTimer = undefined;
      void this.#tick();
    }, wait);
  }

  #onVisibility(visible: boolean): void {
    if (!visible) {
      this.#cancelTimer?.();
      this.#cancelTimer = undefined;
    } else if (!this.#inFlight) {
      void this.#tick();
    }
  }

  #tick(): Promise<void> {
    if (this.stopped || !this.#visibility.isVisible()) return Promise.resolve();
    if (this.#gate() > this.#now()) {
      this.#schedule(0);
      return Promise.resolve();
    }
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
    const poll = this.#options.poll(this.#controller.signal).then(
      () => this.#schedule(this.#intervalMs),
      (reason: unknown) => this.#failed(asPriceBoardError(reason)),
    );
    this.#inFlight = poll.finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  #failed(error: PriceBoardError): void {
    if (this.stopped) return;
    if (endsRetries(error)) {
      this.stop();
      this.#options.onEvent?.({ kind: 'stopped', error });
      return;
    }
    this.#rateLimit.note(error);
    this.#options.onEvent?.({ kind: 'failure', error });
    this.#schedule(this.#intervalMs);
  }
}
