/** The broker of one process: every listener is in this process (see `redis-broker.ts` for a cluster's). */
import type { Broker, RelayEvent } from './types';

export class MemoryBroker implements Broker {
  readonly #listeners = new Set<(events: readonly RelayEvent[]) => void>();

  async publish(events: readonly RelayEvent[]): Promise<void> {
    for (const listener of this.#listeners) listener(events);
  }

  subscribe(listener: (events: readonly RelayEvent[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
