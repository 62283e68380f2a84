/**
 * The flash of a changed price: for {@link FLASH_MS} after the change its cell holds the class
 * `flash` (a tint, `flash.styles.ts`), which a later render takes off. The tint is not animated:
 * Chromium recalculates the style of every element with a running CSS animation at each style
 * update, so the fade-out this replaces, run once per change, cost the main thread about 120 ms/s
 * under the bench's live load (200 changes/s, about 180 fades running at once) and gave it its
 * long frames; a class on and off costs two style changes per change.
 *
 * Each render asks {@link PriceFlash.on} for every row and the controller keeps the earliest end
 * among the flashes shown; after the render one timer, on a {@link GRID_MS} grid, asks for the
 * render that ends it. The renders that live quotes cause end most flashes on their own: the timer
 * is re-armed by each of them, and a board that gets no quote renders once per grid step at most.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { PriceChanges } from './announcer';

/** How long a changed price shows its flash (ms); the render that ends it comes up to {@link GRID_MS} later. */
export const FLASH_MS = 800;
/** The grid of the renders that end flashes (ms): at most one such render per step. */
export const GRID_MS = 200;

export class PriceFlash implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  /** When the price of a symbol last changed (`performance.now()`), if it did. */
  readonly #quotes: PriceChanges;
  /** The earliest end among the flashes the render under way shows. */
  #next = Infinity;
  /** When the timer last armed fires (Infinity: none needed; NaN: none armed). */
  #due = NaN;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(host: ReactiveControllerHost, quotes: PriceChanges) {
    this.#host = host;
    this.#quotes = quotes;
    host.addController(this);
  }

  /** Whether the price of `symbol` shows its flash now (a render asks for each row). */
  on(symbol: string): boolean {
    const at = this.#quotes.changedAt(symbol);
    if (at === undefined || performance.now() - at >= FLASH_MS) return false;
    this.#next = Math.min(this.#next, at + FLASH_MS);
    return true;
  }

  /** After each render: the timer for the earliest end it showed (the next render starts afresh). */
  hostUpdated(): void {
    const due = Math.ceil(this.#next / GRID_MS) * GRID_MS;
    this.#next = Infinity;
    if (due === this.#due) return;
    clearTimeout(this.#timer);
    this.#due = due;
    // A millisecond late, so that the render it asks for reads a `now` past the end (and so shows
    // no flash that rounds to this `due`: the next render's differs).
    if (due < Infinity) this.#timer = setTimeout(() => this.#host.requestUpdate(), due + 1 - performance.now());
  }

  hostDisconnected(): void {
    clearTimeout(this.#timer);
    this.#due = NaN;
  }
}
