/**
 * A polite live region's text, throttled: screen readers hear at most one announcement per
 * interval, and the latest one wins when several come in between.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

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
