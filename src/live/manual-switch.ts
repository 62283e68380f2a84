/** A boolean that can be flipped by hand and watched: the base of injectable test sources. */
export class ManualSwitch {
  protected on: boolean;
  private readonly listeners = new Set<(on: boolean) => void>();

  constructor(on = true) {
    this.on = on;
  }

  /** Calls `listener` on every change; returns the unsubscribe function. */
  subscribe(listener: (on: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Changes the state and tells the subscribers (only on a real change). */
  set(on: boolean): void {
    if (on === this.on) return;
    this.on = on;
    for (const listener of [...this.listeners]) listener(on);
  }

  /** Number of subscribers (tests check that closing unsubscribes). */
  get listenerCount(): number {
    return this.listeners.size;
  }
}
