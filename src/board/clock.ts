/**
 * The board's notion of now: re-renders periodically so that rows turn stale when the market
 * closes and times turn into dates after midnight, even when no quote arrives.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

const TICK_MS = 30_000;

export class Clock implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  /** The current time; read once per render. */
  now(): Date {
    return new Date();
  }

  hostConnected(): void {
    this.#timer ??= setInterval(() => this.#host.requestUpdate(), TICK_MS);
  }

  hostDisconnected(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
