/**
 * Leadership of a cluster: a Redis lock (SET NX PX) with a TTL of at most 5 s, renewed at a
 * quarter of it, holding a fencing token. The lock alone is not enough: a leader paused (GC,
 * SIGSTOP, a slow VM) or cut off from Redis still believes it leads until it next looks. So:
 * - its lease is counted on its own clock from *before* each renewal was sent, minus a margin,
 *   and `isLeader` turns false when it runs out, whether or not Redis could be asked;
 * - every spend and every numbered event is checked against the lock value inside Redis (the
 *   scripts' fencing), so a stale leader that slips past its own check is refused there.
 */
import { randomUUID } from 'node:crypto';
import type { Leader } from './types';
import { ACQUIRE, RELEASE, RENEW } from './redis-scripts';

/** The commands the leader needs: one EVAL. */
export interface ScriptRunner {
  run(script: string, keys: string[], args: (string | number)[]): Promise<unknown>;
}

export interface RedisLeaderOptions {
  redis: ScriptRunner;
  lockKey: string;
  fenceKey: string;
  /**
   * The base of this member's intact mark (`<base>:<processId>`, {@link RedisLeader.intactKey}),
   * set once it has written back what it holds; gone when Redis lost its data (a restart, a
   * FLUSHALL): it does not take the lock while its own mark is missing, so it spends on no budget
   * Redis forgot before it has written back what it heard of it.
   */
  intactKey: string;
  /** The lock's TTL: at most 5 s (DESIGN.md §7); a dead leader is replaced within it. */
  ttlMs: number;
  onError?: (error: unknown) => void;
  /** False while this process may not take the lead (resynchronising after Redis returned). */
  mayLead?: () => boolean;
  now?: () => number;
}

/** Share of the TTL a leader trusts its lease: the rest covers clock drift and a slow reply. */
const LEASE_SHARE = 0.8;

export class RedisLeader implements Leader {
  /** Unique per process: two holders are never confused, even with equal tokens. */
  readonly processId = randomUUID();
  /** The held lock value (`token:processId`), while leading. */
  #value: string | undefined;
  #leaseUntil = 0;
  #highestToken = 0;
  readonly #listeners = new Set<(isLeader: boolean) => void>();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #closed = false;
  readonly #now: () => number;

  readonly #options: RedisLeaderOptions;

  constructor(options: RedisLeaderOptions) {
    this.#options = options;
    if (options.ttlMs > 5_000) throw new Error('the leader lock TTL must be at most 5 s');
    this.#now = options.now ?? Date.now;
    this.#schedule(0);
  }

  /** This member's intact mark (see {@link RedisLeaderOptions.intactKey}). */
  get intactKey(): string {
    return `${this.#options.intactKey}:${this.processId}`;
  }

  get isLeader(): boolean {
    return this.#value !== undefined && this.#now() < this.#leaseUntil;
  }

  /** The lock value that the fenced scripts compare ('' when not leading: always refused). */
  get fence(): string {
    return this.isLeader ? this.#value! : '';
  }

  onChange(listener: (isLeader: boolean) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Called when Redis refused a fenced write: someone else leads now. */
  lost(): void {
    if (this.#value === undefined) return;
    this.#value = undefined;
    this.#leaseUntil = 0;
    this.#emit(false);
  }

  /** Steps down at once and gives the lock up (it may not lead: its plan is not the cluster's). */
  async resign(): Promise<void> {
    const value = this.#value;
    this.lost();
    if (value) await this.#options.redis.run(RELEASE, [this.#options.lockKey], [value]).catch(() => {});
  }

  /** One renewal or acquisition attempt (the timer's; tests may call it to skip a wait). */
  tick(): Promise<void> {
    this.#running ??= this.#attempt().finally(() => (this.#running = undefined));
    return this.#running;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.#running;
    // Gives the lock up so a successor need not wait for the TTL.
    await this.resign();
  }

  /**
   * The leader renews at a quarter of the TTL; a follower looks for a free lock four times as
   * often (one cheap EXISTS), so a dead leader is replaced soon after its lock expires.
   */
  #schedule(ms: number): void {
    if (this.#closed) return;
    this.#timer = setTimeout(() => {
      void this.tick().then(() =>
        this.#schedule(Math.max(50, Math.floor(this.#options.ttlMs / (this.#value ? 4 : 16)))),
      );
    }, ms);
  }

  async #attempt(): Promise<void> {
    if (this.#closed) return;
    const { redis, lockKey, fenceKey, ttlMs } = this.#options;
    const sentAt = this.#now();
    try {
      if (this.#value !== undefined) {
        const held = await redis.run(RENEW, [lockKey], [this.#value, ttlMs]);
        // Still ours in Redis (no one else can have taken it): the lease starts again from sentAt.
        if (held === 1) this.#leaseUntil = sentAt + ttlMs * LEASE_SHARE;
        else this.lost();
        return;
      }
      if (this.#options.mayLead?.() === false) return;
      const value = await redis.run(
        ACQUIRE,
        [lockKey, fenceKey, this.intactKey],
        [ttlMs, this.processId, this.#highestToken],
      );
      if (typeof value !== 'string' || this.#closed) return;
      this.#highestToken = Math.max(this.#highestToken, Number(value.split(':')[0]));
      this.#value = value;
      this.#leaseUntil = sentAt + ttlMs * LEASE_SHARE;
      this.#emit(true);
    } catch (error) {
      this.#options.onError?.(error);
      // Redis cannot be asked: the lease runs out on our own clock.
      if (this.#value !== undefined && this.#now() >= this.#leaseUntil) this.lost();
    }
  }

  #emit(isLeader: boolean): void {
    for (const listener of [...this.#listeners]) listener(isLeader);
  }
}
