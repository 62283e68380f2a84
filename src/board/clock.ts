/**
 * The board's notion of now: re-renders periodically so that rows turn stale when the market
 * closes and times turn into dates after midnight, even when no quote arrives; and the date
 * formatters of the time cells, built once the first rows are shown (`dates.ts`).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { DateFormat } from '../format/date';
import { datesReady, prepareDates } from './dates';

const TICK_MS = 30_000;

export class Clock implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  /** The date formatters of the time cells, once prepared (see {@link rowsShown}). */
  dates(): DateFormat | undefined {
    return datesReady();
  }

  /** Prepares the date formatters now: a board over the relay's render shows its times at its first update. */
  ready(): Promise<void> {
    return prepareDates();
  }

  /** The rows are on screen (with data, or an error in their place): their times may follow. */
  rowsShown(): void {
    if (!datesReady()) void prepareDates().then(() => this.#host.requestUpdate());
  }

  hostConnected(): void {
    this.#timer ??= setInterval(() => this.#host.requestUpdate(), TICK_MS);
  }

  hostDisconnected(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
