/**
 * Sources the data layer takes by injection (page visibility, online state), switched by hand in
 * tests: `set(false)` hides the page or goes offline.
 */
import type { OnlineSource } from '../../src/live/online';
import type { VisibilitySource } from '../../src/live/visibility';

/** A boolean that can be flipped by hand and watched. */
class ManualSwitch {
  protected on: boolean;
  readonly #listeners = new Set<(on: boolean) => void>();

  constructor(on = true) {
    this.on = on;
  }

  /** Calls `listener` on every change; returns the unsubscribe function. */
  subscribe(listener: (on: boolean) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Changes the state and tells the subscribers (only on a real change). */
  set(on: boolean): void {
    if (on === this.on) return;
    this.on = on;
    for (const listener of [...this.#listeners]) listener(on);
  }

  /** Number of subscribers (tests check that closing unsubscribes). */
  get listenerCount(): number {
    return this.#listeners.size;
  }
}

export class ManualOnline extends ManualSwitch implements OnlineSource {
  isOnline(): boolean {
    return this.on;
  }
}

export class ManualVisibility extends ManualSwitch implements VisibilitySource {
  isVisible(): boolean {
    return this.on;
  }
}
