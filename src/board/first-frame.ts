/**
 * Holds the board's first render until the first animation frame, when it would be painted
 * anyway, unless something to show arrives before (the prices answer, a status, an error). On a
 * fast network the answer then comes first and the rows are laid out once, instead of after a
 * skeleton that nobody would see and that keeps the main thread busy when the answer arrives
 * (style, layout, container queries: the largest costs of the first paint after the Persian date
 * formatters). On a slow one the skeleton is painted in the same frame as before.
 */
export class FirstFrame {
  #open!: () => void;
  #waiting = false;
  readonly #opened = new Promise<void>((resolve) => (this.#open = resolve));

  /** Resolves at the next animation frame (at once on a hidden page: it has none), or when opened. */
  wait(): Promise<void> {
    if (!this.#waiting) {
      this.#waiting = true;
      if (globalThis.document?.visibilityState === 'hidden') this.open();
      else requestAnimationFrame(() => this.open());
    }
    return this.#opened;
  }

  /** Something to show arrived: render now. */
  open(): void {
    this.#open();
  }
}
