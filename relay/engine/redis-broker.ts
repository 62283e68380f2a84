/**
 * The cluster's broker: numbered events through Redis PUBLISH/SUBSCRIBE. Ids are consecutive
 * across the cluster, so a gap tells a subscriber that messages were lost (pub/sub delivers at
 * most once, and nothing while disconnected): it reads them from the resume buffer first. After a
 * reconnection it catches up the same way. Deliveries run one at a time, in id order.
 */
import type { RedisLink } from './redis-link';
import type { RedisQuoteState } from './redis-state';
import type { Broker, RelayEvent } from './types';

export class RedisBroker implements Broker {
  readonly #listeners = new Set<(events: readonly RelayEvent[]) => void>();
  /** The highest id delivered here: later deliveries skip what is not newer. */
  #lastSeen = 0;
  /** The last id numbered in Redis that this process had not heard at the last `collectUnheard`. */
  #owed: number | undefined;
  /** Deliveries in order, one at a time (a gap is filled before what follows it). */
  #queue: Promise<void> = Promise.resolve();

  readonly #link: RedisLink;
  readonly #state: RedisQuoteState;

  constructor(
    link: RedisLink,
    /** Where missed events are read from, and where delivered ones are remembered. */
    state: RedisQuoteState,
  ) {
    this.#link = link;
    this.#state = state;
  }

  async listen(): Promise<void> {
    const { sub, cmd, keys } = this.#link;
    this.#lastSeen = Number((await cmd.get(keys('seq'))) ?? 0);
    await sub.subscribe(keys('events'), (message) => {
      this.#enqueue(() => this.#receive(JSON.parse(message) as RelayEvent[]));
    });
  }

  async publish(events: readonly RelayEvent[]): Promise<void> {
    await this.#link.cmd.publish(this.#link.keys('events'), JSON.stringify(events));
  }

  subscribe(listener: (events: readonly RelayEvent[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Pub/sub delivers at most once: an id numbered in Redis that this process still has not heard
   * at the next call (its message lost, say the leader's connection dropped as it published) is
   * read from the resume buffer, not left until the next event shows the gap. Called each second.
   */
  async collectUnheard(): Promise<void> {
    const seq = Number((await this.#link.cmd.get(this.#link.keys('seq'))) ?? 0);
    if (this.#owed !== undefined && this.#lastSeen < this.#owed) await this.catchUp();
    this.#owed = seq > this.#lastSeen ? seq : undefined;
  }

  /** Reads the events after the last one delivered here from the resume buffer. */
  catchUp(): Promise<void> {
    return this.#enqueue(async () => {
      const missed = await this.#state.since(this.#lastSeen, undefined);
      if (missed?.length) this.#deliver(missed);
    });
  }

  #enqueue(job: () => Promise<void> | void): Promise<void> {
    this.#queue = this.#queue.then(job).catch(() => {});
    return this.#queue;
  }

  async #receive(events: RelayEvent[]): Promise<void> {
    const first = events[0];
    // Ids are consecutive: a gap means messages were lost (a reconnection); the buffer has them.
    if (first && first.id > this.#lastSeen + 1 && this.#lastSeen > 0) {
      const missed = await this.#state.since(this.#lastSeen, undefined).catch(() => undefined);
      if (missed) this.#deliver(missed.filter((e) => e.id < first.id));
    }
    this.#deliver(events);
  }

  #deliver(events: readonly RelayEvent[]): void {
    const fresh = events.filter((e) => e.id > this.#lastSeen);
    if (fresh.length === 0) return;
    this.#lastSeen = fresh[fresh.length - 1]!.id;
    this.#state.remember(fresh);
    for (const listener of this.#listeners) listener(fresh);
  }
}
