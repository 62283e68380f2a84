/**
 * A follower's cache miss, asked of the leader through Redis: the follower PUBLISHes the cache key
 * on `asks` (once per key while its askers wait); the leader (only it acts on an ask) fills the key
 * and PUBLISHes the outcome on `filled`. Pub/sub delivers at most once, so a waiting follower also
 * re-reads the cache now and then: a lost "filled" costs a moment, not the answer. And it asks again
 * every second while it waits: a leader that died (or was paused) before answering cannot, and the
 * new one never heard the first ask. Asking again costs no upstream request: the leader's fill
 * reads the cache first and joins its own request in flight.
 *
 * A follower's visitors' symbols go the same way (`want`): added to the set `wanted` (bounded by
 * the catalog: only catalog ids are wanted) and, when new there, PUBLISHed on `wanted`. The leader
 * takes them at once, and reads the whole set every tick (`collectWanted`): a lost message, or a
 * new leader, costs at most a tick, and a symbol stays carried whoever leads.
 */
import type { RedisLink } from './redis-link';
import type { AskOutcome, Asks, Cache, Leader } from './types';

/** How often a waiting follower re-reads the cache. */
const REREAD_MS = 250;
/** Every how many re-reads it asks again. */
const ASK_AGAIN_EVERY = 4;

export class RedisAsks implements Asks {
  readonly #waiting = new Map<
    string,
    { promise: Promise<AskOutcome | undefined>; settle: (outcome: AskOutcome) => void }
  >();
  #fill: ((key: string) => Promise<AskOutcome>) | undefined;
  readonly #wantedListeners = new Set<(symbols: string[]) => void>();

  readonly #link: RedisLink;
  readonly #leader: Pick<Leader, 'isLeader'>;
  readonly #cache: Pick<Cache, 'peek'>;

  constructor(
    link: RedisLink,
    /** Only the leader answers asks. */
    leader: Pick<Leader, 'isLeader'>,
    /** Re-read while waiting (without counting as a use). */
    cache: Pick<Cache, 'peek'>,
  ) {
    this.#link = link;
    this.#leader = leader;
    this.#cache = cache;
  }

  async listen(): Promise<void> {
    const { sub, keys } = this.#link;
    await sub.subscribe(keys('filled'), (message) => {
      const { key, outcome } = JSON.parse(message) as { key: string; outcome: AskOutcome };
      this.#waiting.get(key)?.settle(outcome);
    });
    await sub.subscribe(keys('asks'), (key) => {
      if (this.#fill && this.#leader.isLeader) void this.#answer(this.#fill, key);
    });
    await sub.subscribe(keys('wanted'), (symbols) => this.#deliver(symbols.split(',')));
  }

  want(symbols: readonly string[]): void {
    if (symbols.length === 0) return;
    const { cmd, keys } = this.#link;
    void cmd
      .sAdd(keys('wanted'), [...symbols])
      .then((added) => (added > 0 ? cmd.publish(keys('wanted'), symbols.join(',')) : 0))
      .catch(() => {});
  }

  onWanted(listener: (symbols: string[]) => void): () => void {
    this.#wantedListeners.add(listener);
    return () => this.#wantedListeners.delete(listener);
  }

  /** On the leader: every symbol any follower wanted (the engine's tick). */
  async collectWanted(): Promise<void> {
    if (!this.#leader.isLeader || this.#wantedListeners.size === 0) return;
    this.#deliver(await this.#link.cmd.sMembers(this.#link.keys('wanted')));
  }

  #deliver(symbols: string[]): void {
    if (!this.#leader.isLeader || symbols.length === 0) return;
    for (const listener of [...this.#wantedListeners]) listener(symbols);
  }

  ask(key: string, timeoutMs: number, held?: number): Promise<AskOutcome | undefined> {
    const pending = this.#waiting.get(key);
    if (pending) return pending.promise;
    let settle!: (outcome: AskOutcome | undefined) => void;
    const promise = new Promise<AskOutcome | undefined>((resolve) => (settle = resolve)).finally(() => {
      clearTimeout(timer);
      clearInterval(reread);
      this.#waiting.delete(key);
    });
    const { cmd, keys } = this.#link;
    // Redis away: nobody can be asked; the asker answers as it would have without asking.
    const publish = (): void => void cmd.publish(keys('asks'), key).catch(() => settle(undefined));
    const timer = setTimeout(() => settle(undefined), timeoutMs);
    let rereads = 0;
    const reread = setInterval(() => {
      this.#cache.peek(key).then(
        (entry) => entry && entry.storedAt !== held && settle({ filled: true }),
        () => {},
      );
      if (++rereads % ASK_AGAIN_EVERY === 0) publish();
    }, REREAD_MS);
    this.#waiting.set(key, { promise, settle });
    publish();
    return promise;
  }

  serve(fill: (key: string) => Promise<AskOutcome>): () => void {
    this.#fill = fill;
    return () => {
      if (this.#fill === fill) this.#fill = undefined;
    };
  }

  async #answer(fill: (key: string) => Promise<AskOutcome>, key: string): Promise<void> {
    const outcome = await fill(key).catch((): AskOutcome => ({ filled: false, error: { code: 'server' } }));
    await this.#link.cmd.publish(this.#link.keys('filled'), JSON.stringify({ key, outcome })).catch(() => {});
  }
}
